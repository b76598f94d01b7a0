package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary act as the real command, so the signal
// test exercises main itself without a separate go build.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("SERVE_TEST_ARGS"); ok {
		os.Args = append([]string{"serve"}, strings.Split(args, "\x1f")...)
		main()
		return
	}
	os.Exit(m.Run())
}

func TestSignalsStopTheServer(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "SERVE_TEST_ARGS="+strings.Join([]string{"-dir", siteDir(t), "-addr", "127.0.0.1:0"}, "\x1f"))
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			line, err := bufio.NewReader(out).ReadString('\n')
			require.NoError(t, err)
			assert.Contains(t, line, "— Ctrl+C to stop")

			require.NoError(t, cmd.Process.Signal(sig))
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				assert.NoError(t, err, "exit code 0 after %v", sig)
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 10s after %v", sig)
			}
		})
	}
}

func TestMainExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"usage error", []string{"-prefix", "x"}, exitUsage},
		{"missing folder", []string{"-dir", "/nonexistent/kvleak-site"}, exitServe},
		{"help", []string{"-h"}, exitOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "SERVE_TEST_ARGS="+strings.Join(tc.args, "\x1f"))
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.want, code)
		})
	}
}
