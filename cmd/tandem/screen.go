package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// screen is what a person reads: the answer on stdout, everything else
// (tool lines, diffs, prompts, notices) on stderr. On a terminal it also
// keeps a live region at the bottom of the screen, redrawn in place: a
// spinner with the elapsed time and tokens, the running tool calls and the
// tail of a running command's output. Elsewhere it writes plain lines.
type screen struct {
	out, err io.Writer
	style    style
	live     bool // redraw in place: stdout and stderr are the terminal
	width    func() int

	mu       sync.Mutex // guards the fields below and both writers
	midLine  bool       // stdout does not end in a newline
	drawn    int        // lines of the live region on the screen now
	paused   bool       // a prompt owns the screen: no redraws
	working  bool       // a turn runs: show the spinner
	activity string     // what the spinner says: working, thinking
	started  time.Time
	tokens   int
	running  []string // titles of the tool calls in progress
	tail     []string // the last lines of a running command's output
	frame    int
	stopTick chan struct{} // closed by close to end the ticker
	tickDone chan struct{}
}

// tailLines is how many lines of a running command's output stay visible.
const tailLines = 5

func newScreen(out, err io.Writer, st style, live bool, width func() int) *screen {
	s := &screen{out: out, err: err, style: st, live: live, width: width}
	if live {
		s.stopTick, s.tickDone = make(chan struct{}), make(chan struct{})
		go s.tick()
	}
	return s
}

// tick advances the spinner until close.
func (s *screen) tick() {
	defer close(s.tickDone)
	t := time.NewTicker(120 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-s.stopTick:
			return
		case <-t.C:
			s.mu.Lock()
			s.frame++
			s.redraw()
			s.mu.Unlock()
		}
	}
}

// close stops the ticker and leaves the screen with no live region.
func (s *screen) close() {
	if s.live {
		close(s.stopTick)
		<-s.tickDone
	}
	s.idle()
}

// idle ends a turn's live region: no spinner, no running calls, the
// answer's last line ended.
func (s *screen) idle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.working, s.running, s.tail = false, nil, nil
	s.clear()
	s.endLine()
}

// answer writes a chunk of the model's text to stdout.
func (s *screen) answer(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	io.WriteString(s.out, text)
	s.midLine = !strings.HasSuffix(text, "\n")
	s.redraw()
}

// println writes lines to stderr above the live region.
func (s *screen) println(lines ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	s.endLine()
	for _, l := range lines {
		fmt.Fprintln(s.err, l)
	}
	s.redraw()
}

// update changes the live region's state under the lock and redraws it.
func (s *screen) update(f func(s *screen)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
	s.redraw()
}

// hold gives the screen to a prompt: the live region goes away until
// release, and the prompt writes to stderr directly.
func (s *screen) hold() io.Writer {
	s.mu.Lock()
	s.clear()
	s.endLine()
	s.paused = true
	return s.err
}

func (s *screen) release() {
	s.paused = false
	s.redraw()
	s.mu.Unlock()
}

func (s *screen) endLine() {
	if s.midLine {
		io.WriteString(s.out, "\n")
		s.midLine = false
	}
}

// clear erases the live region; the cursor ends where it began.
func (s *screen) clear() {
	if s.drawn == 0 {
		return
	}
	io.WriteString(s.err, "\r"+strings.Repeat("\x1b[1A", s.drawn-1)+"\x1b[J")
	s.drawn = 0
}

// redraw paints the live region: running tool calls, the command's tail
// and the spinner. Nothing is drawn mid-line (the answer is streaming, and
// is itself the sign of life) or while a prompt holds the screen.
func (s *screen) redraw() {
	if !s.live || s.paused || s.midLine {
		return
	}
	s.clear()
	var lines []string
	spin := spinnerFrames[s.frame%len(spinnerFrames)]
	for _, t := range s.running {
		lines = append(lines, s.style.cyan(spin)+" "+s.fit(t, 2))
	}
	for _, t := range s.tail {
		lines = append(lines, s.style.dim("  │ "+s.fit(t, 4)))
	}
	if s.working {
		activity := s.activity
		if activity == "" {
			activity = "working"
		}
		status := fmt.Sprintf("%s %s %s", spin, activity, time.Since(s.started).Round(time.Second))
		if s.tokens > 0 {
			status += " · " + shortCount(s.tokens) + " tokens"
		}
		lines = append(lines, s.style.dim(status+" · Ctrl-C cancels"))
	}
	if len(lines) == 0 {
		return
	}
	io.WriteString(s.err, strings.Join(lines, "\n"))
	s.drawn = len(lines)
}

// fit cuts line to what one terminal row holds after indent columns, so a
// long line never wraps and throws the region's line count off.
func (s *screen) fit(line string, indent int) string {
	line = strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, line)
	w := 80
	if s.width != nil {
		if n := s.width(); n > 0 {
			w = n
		}
	}
	max := w - indent - 1
	if max < 10 || utf8.RuneCountInString(line) <= max {
		return line
	}
	r := []rune(line)
	return string(r[:max-1]) + "…"
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// shortCount writes a token count the way a status line wants it: 950, 12.3k.
func shortCount(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}
