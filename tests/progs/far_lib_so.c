/* The library far_lib.c maps far away. */
int far_leaf(int x);
int far_entry(int n);

__attribute__((noinline)) int far_leaf(int x)
{
	return x * 3 + 1;
}

int far_entry(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += far_leaf(i);
	return sum;
}
