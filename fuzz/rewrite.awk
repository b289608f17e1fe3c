# rewrite.awk - points the references of a density function file at the files of a
# fuzz harness's in-memory pack (used by fuzz/make-corpus.sh).
#
#   awk -v mode=pack  -f rewrite.awk f.json         density functions -> "t:g", noises -> "t:n"
#   awk -v mode=leaf  -f rewrite.awk f.json         density functions -> 0.5, noises -> "t:n0"
#   awk -v mode=graph -v map=M -f rewrite.awk f.json
#       density functions -> "t:f1".."t:f7" (distinct ids in order of appearance, the
#       8th and later wrap around), noises -> "t:n0" (the first noise id), "t:n1" (others);
#       M receives one line per mapping: "f<K> <id>" and "n<K> <id>".
# A reference is a "namespace:path" string; the value of "type" is kept, the value of
# "noise" is a noise id, any other one is a density function id.
BEGIN { RS = "\001"; nf = 0; nn = 0 }
{
    text = $0
    out = ""
    while (match(text, /"[a-z0-9_.-]+:[a-z0-9_.\/-]+"/)) {
        before = substr(text, 1, RSTART - 1)
        id = substr(text, RSTART + 1, RLENGTH - 2)
        text = substr(text, RSTART + RLENGTH)
        key = before
        sub(/[ \t\r\n]*:[ \t\r\n]*$/, "", key)
        if (key != before && match(key, /"[a-z_]+"$/)) key = substr(key, RSTART + 1, RLENGTH - 2)
        else key = ""
        if (key == "type") { out = out before "\"" id "\""; continue }
        if (key == "noise") {
            if (mode == "pack") rep = "\"t:n\""
            else if (mode == "leaf") rep = "\"t:n0\""
            else {
                if (!(id in noise)) { noise[id] = nn == 0 ? 0 : 1; nn++; print "n" noise[id] " " id > map }
                rep = "\"t:n" noise[id] "\""
            }
        } else {
            if (mode == "pack") rep = "\"t:g\""
            else if (mode == "leaf") rep = "0.5"
            else {
                if (!(id in df)) { df[id] = nf % 7 + 1; nf++; if (nf <= 7) print "f" df[id] " " id > map }
                rep = "\"t:f" df[id] "\""
            }
        }
        out = out before rep
    }
    printf "%s%s", out, text
}
