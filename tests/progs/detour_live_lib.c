/*
 * A library built with plain -O2, no call sites, for detour_live.c: its
 * one function shorter than a jump, which no detour can take.
 */
int too_short(void)
{
	return 0;
}
