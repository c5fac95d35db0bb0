# Reads of a linked image for the recordmcount tests, from readelf output.
#   entries: readelf -x __mcount_loc IMG | awk -v what=entries \
#              -v relfile=FILE -f rmc_image.awk
#     one __mcount_loc entry per line, in hex: the word, or the addend of
#     the RELATIVE relocation of that word (FILE: readelf -hrW IMG: the
#     header gives the word's size and byte order)
#   nops:    readelf -x .text IMG | awk -v what=nops -v entries=FILE \
#              -v nops="HEX HEX" -f rmc_image.awk
#     "bad ADDR HEX" for each entry whose bytes begin with none of the nops
# With -v section=NAME, only the hex dump of section NAME is read: the
# input may hold readelf's other output (one readelf run for all).

function hexval(s,   i, v) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

function tohex(v,   s, d) {
	s = ""
	do { d = v % 16; s = substr("0123456789abcdef", d + 1, 1) s; v = (v - d) / 16 } while (v > 0)
	return s
}

BEGIN {
	if (what == "entries")
		while ((getline line < relfile) > 0) {
			n = split(line, f, " ")
			if (f[1] == "Class:") w = f[2] == "ELF64" ? 8 : 4
			if (f[1] == "Data:") le = line ~ /little endian/
			if (n >= 4 && f[3] ~ /_RELATIVE$/) rel[hexval(f[1])] = hexval(f[4])
		}
}

/^Hex dump of section '/ {
	dumping = section == "" || index($0, "'" section "'") > 0
	next
}

(section == "" || dumping) && match($0, /^  0x[0-9a-f]+ /) {
	if (bytes == "") start = hexval(substr($0, 3, RLENGTH - 3))
	h = substr($0, RLENGTH + 1, 35)
	gsub(/ /, "", h)
	bytes = bytes h
}

function word(i,   s, k, b) {
	s = ""
	for (k = 0; k < w; k++) {
		b = substr(bytes, 2 * (i * w + k) + 1, 2)
		s = le ? b s : s b
	}
	return hexval(s)
}

END {
	if (what == "entries") {
		for (i = 0; i < length(bytes) / (2 * w); i++) {
			v = word(i)
			if ((start + i * w) in rel) v = rel[start + i * w]
			print tohex(v)
		}
	} else {
		n = split(nops, nop, " ")
		while ((getline e < entries) > 0) {
			at = substr(bytes, 2 * (hexval(e) - start) + 1, 24)
			ok = 0
			for (k = 1; k <= n; k++) if (index(at, nop[k]) == 1) ok = 1
			if (!ok) print "bad " e " " at
		}
	}
}
