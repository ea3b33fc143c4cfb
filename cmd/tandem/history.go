package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxHistory is how many lines the conversation loop remembers across runs.
const maxHistory = 500

// chatHistory is the line editor's history (golang.org/x/term's History),
// kept in $TANDEM_HOME/chat_history.jsonl so ↑ recalls messages from
// earlier conversations too. Each line is a JSON string, so any text
// survives the round trip. The file is the user's own input; tandem
// never writes a secret there itself.
type chatHistory struct {
	lines []string // oldest first
	file  io.WriteCloser
}

// openHistory loads the history file and opens it for appending; a file
// that cannot be read or written leaves a history for this run only.
func openHistory(home string) *chatHistory {
	h := &chatHistory{}
	path := filepath.Join(home, "chat_history.jsonl")
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var s string
			if json.Unmarshal(sc.Bytes(), &s) == nil && s != "" {
				h.lines = append(h.lines, s)
			}
		}
		f.Close()
		if len(h.lines) > maxHistory {
			h.lines = h.lines[len(h.lines)-maxHistory:]
		}
	}
	if len(h.lines) > 0 && len(h.lines) >= maxHistory {
		// Compact the file to what is kept, so it does not grow forever.
		var b []byte
		for _, l := range h.lines {
			j, _ := json.Marshal(l)
			b = append(append(b, j...), '\n')
		}
		os.WriteFile(path, b, 0o600)
	}
	if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err == nil {
		h.file = f
	}
	return h
}

// Add records a line the user entered.
func (h *chatHistory) Add(entry string) {
	if entry == "" || len(h.lines) > 0 && h.lines[len(h.lines)-1] == entry {
		return
	}
	h.lines = append(h.lines, entry)
	if len(h.lines) > 2*maxHistory {
		h.lines = h.lines[len(h.lines)-maxHistory:]
	}
	if h.file != nil {
		j, _ := json.Marshal(entry)
		fmt.Fprintf(h.file, "%s\n", j)
	}
}

// Len is the number of lines remembered.
func (h *chatHistory) Len() int { return len(h.lines) }

// At returns a line by age: 0 is the newest.
func (h *chatHistory) At(idx int) string { return h.lines[len(h.lines)-1-idx] }

func (h *chatHistory) close() {
	if h.file != nil {
		h.file.Close()
	}
}
