package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOutsideSockets: the sockets bwrap covers are the listening named
// ones of the kernel's table and those a variable names (plain, unix://,
// unix:path=, the first of a comma list), each once, real and existing,
// and never one in the command's own folders or abstract.
func TestOutsideSockets(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := func(name string) string {
		p := filepath.Join(dir, name)
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return p
	}
	docker, tmux, dbus, agent, own, idle := sock("docker.sock"), sock("tmux"), sock("bus"), sock("agent.1"), sock("ws/own.sock"), sock("idle")
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	table := strings.Join([]string{
		"Num       RefCount Protocol Flags    Type St Inode Path",
		"0000000000000001: 00000002 00000000 00010000 0001 01 1 " + docker,
		"0000000000000002: 00000002 00000000 00010000 0001 01 2 " + tmux,
		"0000000000000003: 00000002 00000000 00010000 0001 01 3 " + own,
		"0000000000000004: 00000002 00000000 00000000 0001 03 4 " + idle,
		"0000000000000005: 00000002 00000000 00010000 0001 01 5 @abstract",
		"0000000000000006: 00000002 00000000 00010000 0001 01 6 " + filepath.Join(dir, "gone.sock"),
		"0000000000000007: 00000002 00000000 00010000 0001 01 7 relative.sock",
		"0000000000000008: 00000002 00000000 00010000 0001 01 8 " + docker,
		"0000000000000009: 00000003 00000000 00000000 0001 03 9",
	}, "\n")
	environ := []string{"DOCKER_HOST=unix://" + docker, "DBUS_SESSION_BUS_ADDRESS=unix:path=" + dbus + ",guid=x", "SSH_AUTH_SOCK=" + agent, "NOT_A_SOCKET=" + file, "TMUX=" + tmux + ",1,0", "HOME=" + dir}
	got := outsideSockets(strings.NewReader(table), environ, []string{ws})
	want := []string{docker, tmux, dbus, agent}
	for i := range want {
		want[i], _ = filepath.EvalSymlinks(want[i])
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("outsideSockets = %q, want %q", got, want)
	}
}
