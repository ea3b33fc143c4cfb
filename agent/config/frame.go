package config

import (
	"fmt"
	"strconv"
)

// Bounds of maxFrameBytes. The floor leaves room for a useful tool result
// (an eighth of a frame, see agent.ResultCap) plus the JSON around it; the
// ceiling keeps a frame well inside what editors buffer and an int holds.
const (
	DefaultMaxFrameBytes = 8 << 20
	MinFrameBytes        = 64 << 10
	MaxFrameBytesCeiling = 1 << 30
)

// loadMaxFrame reads the outbound frame cap: TANDEM_MAX_FRAME_BYTES wins
// over config.json's maxFrameBytes; 0 means unset. A value out of bounds is
// an error naming where it came from, never silently raised or lowered: a
// cap the user did not get would surprise them either way.
func loadMaxFrame(getenv func(string) string, fromFile int) (int, error) {
	n, where := fromFile, "config.json maxFrameBytes"
	if v := getenv("TANDEM_MAX_FRAME_BYTES"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("config: TANDEM_MAX_FRAME_BYTES=%q is not a number of bytes", v)
		}
		where = "TANDEM_MAX_FRAME_BYTES"
	} else if n == 0 {
		return 0, nil
	}
	if n < MinFrameBytes || n > MaxFrameBytesCeiling {
		return 0, fmt.Errorf("config: %s = %d: use a number of bytes between %d (64 KiB) and %d (1 GiB); the default is %d (8 MiB)",
			where, n, MinFrameBytes, MaxFrameBytesCeiling, DefaultMaxFrameBytes)
	}
	return n, nil
}
