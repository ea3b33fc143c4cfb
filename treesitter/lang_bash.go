package treesitter

import "bytes"

// Bash is one of the cheap extra languages: top-level definitions and one
// level of members, checked on the sample under testdata/defs.
func bashSpec() *spec {
	return &spec{
		rules: map[string]rule{
			"function_definition": {kind: KindFunction},
		},
		parseAs: asciiOnly,
	}
}

// asciiOnly replaces every non-ASCII byte with 'x'. The bash grammar's
// scanner passes the character after `{` to C's isdigit, whose table is
// indexed by the code point: a large one reads far outside it, and the
// fuzzer crashed the process with `{` and U+75CBC (a Nerd Font icon in the
// U+F0000 plane would do too). Same-length ASCII keeps every byte offset,
// so names and signatures still come from the real source, and bash gives
// non-ASCII letters no meaning of their own.
func asciiOnly(src []byte) []byte {
	var out []byte
	for i, b := range src {
		if b >= 0x80 {
			if out == nil {
				out = bytes.Clone(src)
			}
			out[i] = 'x'
		}
	}
	if out == nil {
		return src
	}
	return out
}
