package agent

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/proc"
)

// benchServerEnv makes the test binary serve the tool-step fake model
// instead of running tests: a benchmark that wants its CPU time to be
// tandem's alone runs the model in that child process.
const benchServerEnv = "TANDEM_BENCH_TOOLSTEP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(benchServerEnv) == "1" {
		srv := llmtest.Start()
		srv.Handle(func(r *llmtest.Request) llmtest.Reply { return toolStepReply(countToolResults(r.Messages)) })
		fmt.Println(srv.URL)
		io.Copy(io.Discard, os.Stdin) // until the parent closes it
		srv.Close()
		return
	}
	os.Exit(m.Run())
}

// startToolStepServer runs the fake model of BenchmarkToolSteps in a child
// process and returns its URL; the child ends with the benchmark.
func startToolStepServer(b *testing.B) string {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), benchServerEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatalf("fake model process: %v", err)
	}
	return strings.TrimSpace(url)
}

// procUse is what this process has used so far: CPU time, and how often
// one of its threads went to sleep waiting for something (a voluntary
// context switch: a futex, epoll or read that blocked), each of which costs
// a wake-up later.
type procUse struct {
	cpu    time.Duration
	sleeps int64
}

func rusage() procUse {
	cpu, sleeps := proc.SelfUsage()
	return procUse{cpu: cpu, sleeps: sleeps}
}
