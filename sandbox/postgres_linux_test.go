package sandbox

import (
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestRealPostgresConfined: a real PostgreSQL (initdb, a server on
// loopback TCP, psql, a stop) runs as a command, as a project's tests
// would start it: under Landlock alone its System V segment, made by its
// postmaster, passes the reaper's watch, and it needs no System V
// semaphore (POSIX ones on Linux) nor a unix socket (turned off here, as
// the unix socket filter refuses it there). Its loopback TCP needs the
// network there (a run.network rule): without it the socket filter
// refuses the server's IP socket, and the failure says so.
func TestRealPostgresConfined(t *testing.T) {
	for _, tool := range []string{"initdb", "pg_ctl", "psql"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("PostgreSQL is not installed: %v", err)
		}
	}
	const script = `set -e; D=$TMPDIR/db; initdb -A trust -U pg -D $D >/dev/null
pg_ctl -D $D -o "-c listen_addresses=127.0.0.1 -c port=$1 -c unix_socket_directories=" -w -l $TMPDIR/log start >/dev/null || { cat $TMPDIR/log; exit 1; }
psql -h 127.0.0.1 -p $1 -U pg -d postgres -Atc 'select 40+2'
pg_ctl -D $D -w stop >/dev/null`
	for _, c := range []struct {
		mode    Mode
		network bool
		want    string // the answer, or what the failure says
	}{
		{ModeLandlock, true, "42"},
		{ModeLandlock, false, `could not create IPv4 socket for address "127.0.0.1": Permission denied`},
		{ModeAuto, false, "42"},
	} {
		t.Run(fmt.Sprintf("%s, network %v", c.mode, c.network), func(t *testing.T) {
			requireLayers(t, c.mode)
			r := newRig(t)
			l, err := net.Listen("tcp", "127.0.0.1:0") // a free port
			must(t, err)
			port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
			l.Close()
			pol := r.policy(c.mode)
			pol.Network = c.network
			cmd, prep, err := Command(pol, r.bin, []string{"/bin/sh", "-c", script, "sh", port}, r.environ)
			must(t, err)
			defer prep.Cleanup()
			cmd.Dir = r.ws
			out, err := cmd.CombinedOutput()
			if c.want == "42" && (err != nil || strings.TrimSpace(string(out)) != "42") {
				t.Errorf("PostgreSQL: %v: %s", err, out)
			}
			if c.want != "42" && (err == nil || !strings.Contains(string(out), c.want)) {
				t.Errorf("PostgreSQL without the network: %v: %s; want a failure saying %q", err, out, c.want)
			}
		})
	}
}
