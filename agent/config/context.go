package config

import (
	"fmt"
	"strconv"
)

// loadContext reads the context-window settings: TANDEM_CONTEXT_WINDOW,
// config.json's contextWindows and compactAt. A value that cannot be a
// token count or a share is an error, not a silent default: a wrong
// window makes every later request fail or compact for nothing.
func (c *Config) loadContext(getenv func(string) string, f File) error {
	for model, n := range f.ContextWindows {
		if n <= 0 {
			return fmt.Errorf("config: contextWindows[%q] = %d is not a positive token count", model, n)
		}
	}
	c.ContextWindows = f.ContextWindows
	if v := getenv("TANDEM_CONTEXT_WINDOW"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("config: TANDEM_CONTEXT_WINDOW=%q is not a positive number of tokens", v)
		}
		c.ContextWindow = n
	}
	c.CompactAt = DefaultCompactAt
	if f.CompactAt != 0 {
		if f.CompactAt < 0.1 || f.CompactAt > 1 {
			return fmt.Errorf("config: compactAt = %v: use a share of the window between 0.1 and 1", f.CompactAt)
		}
		c.CompactAt = f.CompactAt
	}
	return nil
}
