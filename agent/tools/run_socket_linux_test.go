package tools

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunCannotReachSocketsOutside: a confined command cannot connect to
// a named unix socket outside the sandbox (the Docker daemon's, an X
// server's /tmp/.X11-unix/X0, an ssh-agent's /tmp/ssh-*/agent.N, VS
// Code's git askpass handle): each hands out what the sandbox withholds.
func TestRunCannotReachSocketsOutside(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	// auto: bubblewrap covers the socket with /dev/null; landlock: the
	// launcher's filter refuses every unix socket, and the result says so.
	for _, mode := range []string{"auto", "landlock"} {
		t.Run(mode, func(t *testing.T) {
			requireMode(t, mode)
			sock := filepath.Join(t.TempDir(), "daemon.sock") // anywhere outside: the kernel's table names it
			l, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			accepted := make(chan struct{}, 1)
			go func() {
				if c, err := l.Accept(); err == nil {
					c.Close()
					accepted <- struct{}{}
				}
			}()
			env := newFake(t, nil)
			env.cfg.Sandbox.Mode = mode
			var got RunOutput
			value(t, call(t, runTool, env, `{"command":"python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('`+sock+`'); print('connected')\""}`), &got)
			select {
			case <-accepted:
				t.Fatalf("a confined command connected to %s: %+v", sock, got)
			case <-time.After(0):
			}
			if got.ExitCode == 0 {
				t.Fatalf("the command connected: %+v", got)
			}
			if mode == "landlock" && !strings.Contains(got.Sandbox, "no unix sockets") {
				t.Errorf("the result does not say why: %q", got.Sandbox)
			}
		})
	}
}
