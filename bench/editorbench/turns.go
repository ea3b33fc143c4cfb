package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// longSession: c.turns short turns in one session; the cost of the turns
// around turn 10 against those ending at c.turns, and the memory a turn
// adds against the history's bytes.
//
// The fake answers every turn with the reply it recorded for the first
// (replay.go): decoding the growing history it is sent took several times
// what tandem does by turn 500, on the same cores. A turn's wall time is
// also less the fake's own time on its request (servedFor). Memory is read two ways: the resident size (RSS), which
// also holds the collector's headroom (with GOGC=100 the heap may grow to
// twice what is live before a collection, so a session keeping B bytes
// more shows up to 2B more, plus spans the garbage between leaves
// partly used), and the live heap after a collection, which tandem
// reports under TANDEM_HEAPSTAT: what the turns keep. The goal is judged
// on the live heap when the build reports it.
func (b *bench) longSession(wire string) error {
	reply := llmtest.Reply{Text: []string{"Here is", " a short", " answer of", " a few", " words."}}
	b.f.llm.Handle(func(*llmtest.Request) llmtest.Reply { return reply })
	b.f.heapstat = true
	b.f.replay.start()
	defer func() { b.f.heapstat = false; b.f.replay.stop() }()
	const window = 10
	n := max(b.c.turns, 2*window+1)
	prompt := strings.Repeat("Please look at this and say something short. ", 4)
	type point struct {
		wall, cpu time.Duration
		rss, live int64
		body      int
	}
	var early, late []point
	for range b.c.rounds {
		for _, p := range b.c.tandems {
			if _, err := b.measure(p, wire, "", "", func(ap *agentProc, _ string) (time.Duration, error) {
				var e, l point
				var t0 time.Time
				var c0, f0 time.Duration
				for i := 1; i <= n; i++ {
					if i == window+1 || i == n-window+1 {
						t0, c0, f0 = time.Now(), ap.cpuNow(), b.f.servedFor()
					}
					if err := ap.prompt(prompt); err != nil {
						return 0, fmt.Errorf("turn %d: %w", i, err)
					}
					switch i {
					case window:
						e.rss, e.live, e.body = ap.rss(), ap.liveHeap(), b.f.bodyBytes()
					case 2 * window:
						e.wall, e.cpu = (time.Since(t0)-(b.f.servedFor()-f0))/window, (ap.cpuNow()-c0)/window
					case n:
						l.wall, l.cpu = (time.Since(t0)-(b.f.servedFor()-f0))/window, (ap.cpuNow()-c0)/window
						l.rss, l.live, l.body = ap.rss(), ap.liveHeap(), b.f.bodyBytes()
					}
				}
				early, late = append(early, e), append(late, l)
				return 0, nil
			}); err != nil {
				return fmt.Errorf("turns: %w", err)
			}
		}
	}
	nt := len(b.c.tandems)
	for i, t := range b.c.tandems {
		var ew, lw, ec, lc []time.Duration
		var mem, live, hist float64
		liveKnown := true
		for r := i; r < len(early); r += nt {
			ew, lw = append(ew, early[r].wall), append(lw, late[r].wall)
			ec, lc = append(ec, early[r].cpu), append(lc, late[r].cpu)
			mem += float64(late[r].rss - early[r].rss)
			live += float64(late[r].live - early[r].live)
			hist += float64(late[r].body - early[r].body)
			liveKnown = liveKnown && early[r].live > 0 && late[r].live > 0
		}
		wr := float64(median(lw)) / float64(median(ew))
		cr := float64(median(lc)) / float64(median(ec))
		per := float64(n-window) * float64(b.c.rounds)
		mr, lr := mem/max(hist, 1), live/max(hist, 1)
		judged := mr
		liveText := "live heap not reported (judged on RSS)"
		if liveKnown {
			judged = lr
			liveText = fmt.Sprintf("live heap %.0f bytes a turn, %.1f× (judged)", live/per, lr)
		}
		writeln(b.out, "turns %s (%s): turn %d %.2f ms wall %.2f ms CPU, turn %d %.2f ms wall %.2f ms CPU (wall less the fake's own time); %.2f× wall, %.2f× CPU (goal ≤ 1.2×) %s; memory for %.0f bytes of history a turn: RSS %.0f bytes a turn, %.1f×; %s (goal ≤ 4×) %s",
			wire, t.name, window, ms(median(ew)), ms(median(ec)), n, ms(median(lw)), ms(median(lc)), wr, cr, met(wr <= 1.2 && cr <= 1.2),
			hist/per, mem/per, mr, liveText, met(judged <= 4))
	}
	return nil
}
