package edits

import (
	"errors"
	"testing"
)

func TestMapperPosition(t *testing.T) {
	// Each case names a byte offset and where it lands in all three encodings.
	tests := []struct {
		name               string
		text               string
		offset             int
		utf8, utf16, utf32 Position
	}{
		{"start", "abc", 0, pos(0, 0), pos(0, 0), pos(0, 0)},
		{"end no newline", "abc", 3, pos(0, 3), pos(0, 3), pos(0, 3)},
		{"after lf", "a\nb", 2, pos(1, 0), pos(1, 0), pos(1, 0)},
		{"end after lf", "a\n", 2, pos(1, 0), pos(1, 0), pos(1, 0)},
		{"after crlf", "a\r\nb", 3, pos(1, 0), pos(1, 0), pos(1, 0)},
		{"inside crlf", "a\r\nb", 2, pos(0, 1), pos(0, 1), pos(0, 1)},
		{"after lone cr", "a\rb", 2, pos(1, 0), pos(1, 0), pos(1, 0)},
		{"cr cr lf", "a\r\r\nb", 4, pos(2, 0), pos(2, 0), pos(2, 0)},
		{"after emoji", "😀x", 4, pos(0, 4), pos(0, 2), pos(0, 1)},
		{"inside emoji", "😀x", 2, pos(0, 0), pos(0, 0), pos(0, 0)},
		{"after cjk", "中文x", 6, pos(0, 6), pos(0, 2), pos(0, 2)},
		{"after combining", "e\u0301x", 3, pos(0, 3), pos(0, 2), pos(0, 2)},
		{"after zwj sequence", "👩‍💻!", 11, pos(0, 11), pos(0, 5), pos(0, 3)},
		// Every bad byte is one unit, even the two of a truncated sequence.
		{"after bad bytes", "\xff\xe2\x82x", 4, pos(0, 4), pos(0, 4), pos(0, 4)},
		{"second line emoji", "ab\n😀😀c", 11, pos(1, 8), pos(1, 4), pos(1, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for enc, want := range map[Encoding]Position{UTF8: tt.utf8, UTF16: tt.utf16, UTF32: tt.utf32} {
				got, err := NewMapper(tt.text, enc).Position(tt.offset)
				if err != nil || got != want {
					t.Errorf("%s: Position(%d) = %v, %v; want %v", enc, tt.offset, got, err, want)
				}
			}
		})
	}
}

func TestMapperOffset(t *testing.T) {
	tests := []struct {
		name string
		text string
		enc  Encoding
		pos  Position
		want int
	}{
		{"utf16 after emoji", "😀x", UTF16, pos(0, 2), 4},
		{"utf16 half pair snaps back", "😀x", UTF16, pos(0, 1), 0},
		{"utf8 inside rune snaps back", "中x", UTF8, pos(0, 2), 0},
		{"utf32 after emoji", "😀x", UTF32, pos(0, 1), 4},
		{"past eol stops before crlf", "ab\r\ncd", UTF16, pos(0, 9), 2},
		{"past eol stops before lone cr", "ab\rcd", UTF16, pos(0, 9), 2},
		{"last line past end", "ab\ncd", UTF16, pos(1, 9), 5},
		{"line count means eof", "ab\ncd", UTF16, pos(2, 0), 5},
		{"bad byte one unit", "\xffx", UTF16, pos(0, 1), 1},
		{"empty encoding is utf16", "😀x", "", pos(0, 2), 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewMapper(tt.text, tt.enc).Offset(tt.pos)
			if err != nil || got != tt.want {
				t.Errorf("Offset(%v) = %d, %v; want %d", tt.pos, got, err, tt.want)
			}
		})
	}
}

func TestMapperOutOfRange(t *testing.T) {
	m := NewMapper("ab\ncd", UTF16)
	if _, err := m.Offset(pos(3, 0)); !errors.Is(err, ErrPosition) {
		t.Errorf("Offset past the last line: err = %v, want ErrPosition", err)
	}
	for _, off := range []int{-1, 6} {
		if _, err := m.Position(off); !errors.Is(err, ErrPosition) {
			t.Errorf("Position(%d): err = %v, want ErrPosition", off, err)
		}
	}
}

func TestMapperLineCount(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 1}, {"a", 1}, {"a\n", 2}, {"a\r\n", 2}, {"a\r", 2}, {"\r\r\n\n", 4}, {"a\nb\rc\r\nd", 4},
	}
	for _, tt := range tests {
		if got := NewMapper(tt.text, UTF16).LineCount(); got != tt.want {
			t.Errorf("LineCount(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestMapperRoundTrip(t *testing.T) {
	// Every rune boundary that is not inside a CRLF survives offset ->
	// position -> offset, in every encoding.
	text := "a😀b\r\n中\u0301\r\xff\xe2\x82\n\n👩‍💻"
	for _, enc := range encodings {
		m := NewMapper(text, enc)
		for off := 0; off <= len(text); off++ {
			if splitsUnit(text, off) {
				continue
			}
			p, err := m.Position(off)
			if err != nil {
				t.Fatal(err)
			}
			back, err := m.Offset(p)
			if err != nil || back != off {
				t.Errorf("%s: %d -> %v -> %d, %v", enc, off, p, back, err)
			}
		}
	}
}
