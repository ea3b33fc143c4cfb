package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// TestProtocolEdges sends both front doors of the real binary messages at
// the edges of JSON-RPC 2.0, one at a time, and checks the id and code of
// each answer: a non-string "jsonrpc", a null or empty method and an id
// that is not UTF-8 get -32600; ids of every shape come back byte for byte.
// LSP answers a request before initialize with -32002, which is fine here:
// what matters is the id.
func TestProtocolEdges(t *testing.T) {
	cases := []struct {
		name, in, id string
		code         int // 0: any error or result
	}{
		{"numeric jsonrpc", `{"jsonrpc":2.0,"id":1,"method":"initialize"}`, `1`, -32600},
		{"object jsonrpc", `{"jsonrpc":{"v":"2.0"},"id":2,"method":"initialize"}`, `2`, -32600},
		{"null method", `{"jsonrpc":"2.0","id":3,"method":null}`, `3`, -32600},
		{"empty method", `{"jsonrpc":"2.0","id":4,"method":""}`, `4`, -32600},
		{"id not UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"a\xff\xfeb\",\"method\":\"nope\"}", `null`, -32600},
		{"huge id", `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"nope"}`, `123456789012345678901234567890`, 0},
		{"fraction id", `{"jsonrpc":"2.0","id":1.50,"method":"nope"}`, `1.50`, 0},
		{"exponent id", `{"jsonrpc":"2.0","id":-2.5e-7,"method":"nope"}`, `-2.5e-7`, 0},
		{"unicode id", `{"jsonrpc":"2.0","id":"é😀 \u00e9\ud83d\ude00","method":"nope"}`, `"é😀 \u00e9\ud83d\ude00"`, 0},
		{"escaped id", `{"jsonrpc":"2.0","id":"<a\"b\\>","method":"nope"}`, `"<a\"b\\>"`, 0},
	}
	for _, door := range []string{"acp", "lsp"} {
		t.Run(door, func(t *testing.T) {
			cmd := exec.Command(testenv.Tandem(t), door)
			cmd.Env = testenv.ModelEnv(t.TempDir(), "http://127.0.0.1:1")
			stdin, stdout := testenv.Start(t, cmd, &testenv.SyncBuffer{})
			defer func() {
				stdin.Close()
				testenv.WaitExit(cmd, 10*time.Second)
			}()
			r := bufio.NewReader(stdout)
			for _, tc := range cases {
				var err error
				if door == "acp" {
					_, err = io.WriteString(stdin, tc.in+"\n")
				} else {
					_, err = fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(tc.in), tc.in)
				}
				if err != nil {
					t.Fatal(err)
				}
				got, err := readFrame(r, door == "lsp")
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if !strings.Contains(got, `"id":`+tc.id+`,`) {
					t.Errorf("%s: the answer does not carry the id %s exactly: %s", tc.name, tc.id, got)
				}
				if tc.code != 0 && !strings.Contains(got, `"code":`+strconv.Itoa(tc.code)+`,`) {
					t.Errorf("%s: want code %d: %s", tc.name, tc.code, got)
				}
			}
		})
	}
}

// readFrame reads one message: a line, or with contentLength one
// Content-Length frame.
func readFrame(r *bufio.Reader, contentLength bool) (string, error) {
	if !contentLength {
		line, err := r.ReadString('\n')
		return strings.TrimSpace(line), err
	}
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return "", fmt.Errorf("no Content-Length")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return string(b), err
}
