package sandbox

import (
	"bufio"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A named unix socket outside the sandbox hands out what the sandbox
// withholds, and neither a read-only mount nor Landlock before ABI 9 stops
// a connect(2); the network namespace does not either (a socket is a
// file): the Docker daemon's (a container mounting / as root), tmux's
// /tmp/tmux-<uid>/default and a Neovim server's (keys typed into the
// user's shell or editor), an X server's /tmp/.X11-unix/X0, an Emacs
// server, VS Code's CLI and git askpass handles, an ssh-agent's
// /tmp/ssh-*/agent.N. Under bubblewrap each listening socket is covered
// with /dev/null, so a connect is refused.

// unixTable is the kernel's table of this network namespace's unix
// sockets (the host's: agentls's own).
const unixTable = "/proc/net/unix"

// listening is the flag of a socket that accepts connections
// (__SO_ACCEPTCON) in /proc/net/unix.
const listening = 1 << 16

// outsideSockets are the named unix sockets that accept connections (from
// the kernel's table, read from table) and those that a variable of
// environ names (`SSH_AUTH_SOCK=/x`, `DOCKER_HOST=unix:///x`,
// `DBUS_SESSION_BUS_ADDRESS=unix:path=/x`, `TMUX=/x,1,0`), except those at
// or below skip (the command's own folders, and folders hidden whole);
// each by its real path, once, and only while it is a socket.
func outsideSockets(table io.Reader, environ []string, skip []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !filepath.IsAbs(p) {
			return
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] || underAny(real, skip) {
			return
		}
		if !isSocket(real) {
			return
		}
		seen[real] = true
		out = append(out, real)
	}
	if table != nil {
		sc := bufio.NewScanner(table)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			// Num: RefCount Protocol Flags Type St Inode Path
			f := strings.Fields(sc.Text())
			if len(f) < 8 {
				continue
			}
			flags, err := strconv.ParseUint(f[3], 16, 64)
			if err != nil || flags&listening == 0 {
				continue
			}
			add(strings.Join(f[7:], " "))
		}
	}
	for _, kv := range environ {
		_, v, _ := strings.Cut(kv, "=")
		for _, field := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
			for _, prefix := range []string{"unix://", "unix:path=", ""} {
				if p, ok := strings.CutPrefix(field, prefix); ok && filepath.IsAbs(p) {
					add(p)
					break
				}
			}
		}
	}
	return out
}

// liveSockets is outsideSockets of this host's table.
func liveSockets(environ, skip []string) []string {
	f, err := os.Open(unixTable)
	if err != nil {
		return outsideSockets(nil, environ, skip)
	}
	defer f.Close()
	return outsideSockets(f, environ, skip)
}

// isSocket reports whether path is a socket (not followed, if a link).
func isSocket(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSocket != 0
}
