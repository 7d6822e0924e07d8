package langpool

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
)

// testClock is a clock the test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (k *testClock) now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.t
}

func (k *testClock) advance(d time.Duration) {
	k.mu.Lock()
	k.t = k.t.Add(d)
	k.mu.Unlock()
}

// TestLatePublishOfTheOldTextDoesNotSettle: the file is changed, then the
// server publishes the OLD text's diagnostics (a run the change overtook),
// then, within its debounce, the new text's. A versionless server's late
// publish must leave the file pending (it used to settle it, with the old
// problems: typescript-language-server's "no problems" right after an
// edit that made one); the new one settles it once no publish came for
// quietFor. A versioned server is judged by its versions alone: its new
// publish settles the file at once, no quiet spell.
func TestLatePublishOfTheOldTextDoesNotSettle(t *testing.T) {
	for _, tc := range []struct {
		push string
		// quiet: a publish settles the file only after quietFor.
		quiet bool
	}{
		{push: "versionless", quiet: true},
		{push: "versioned", quiet: false},
	} {
		t.Run(tc.push, func(t *testing.T) {
			t.Setenv(fakePushEnv, tc.push)
			root := t.TempDir()
			clock := &testClock{t: time.Unix(1e9, 0)}
			const before, after = "package a\n// BAD\n", "package a\n\n\n// BAD\n"
			p := fakePool(t, root, map[string]string{"a.go": before}, Options{now: clock.now})
			a := filepath.Join(root, "a.go")
			quiet := quietFor(lineCount(after))

			// check asks the pool and wants pending, and else the BAD line.
			check := func(step string, wantPending bool, wantLine int) {
				t.Helper()
				snap := diagnosticsOf(t, p, a)
				if snap.Pending != wantPending {
					t.Fatalf("%s: pending %v, want %v (diagnostics %+v)", step, snap.Pending, wantPending, snap.Files[a])
				}
				if ds := snap.Files[a]; !wantPending && (len(ds) != 1 || int(ds[0].Range.Start.Line) != wantLine) {
					t.Fatalf("%s: settled with %+v, want the BAD line %d", step, ds, wantLine)
				}
			}

			// Opened: the server publishes the text's problems.
			diagnosticsOf(t, p, a)
			c, uri := poolClient(t, p, a)
			waitPublished(t, c, uri, 1)
			if tc.quiet {
				check("just after the first publish", true, 0)
				clock.advance(quiet)
			}
			check("the opened file", false, 1)

			// Changed: the server publishes the old text's problems first.
			p.ws.Overlay().SetApplied(a, after)
			check("just after the change", true, 0)
			waitPublished(t, c, uri, 1)
			// Within the server's debounce (the new run's publish comes
			// later), however long the late publish has been there.
			clock.advance(quiet - time.Millisecond)
			check("after the old text's late publish", true, 0)

			// The new text's publish.
			notifyPublish(t, c, uri)
			waitPublished(t, c, uri, 3)
			if tc.quiet {
				check("just after the new publish", true, 0)
				clock.advance(quiet - time.Millisecond)
				check("a moment before the quiet spell ends", true, 0)
				clock.advance(time.Millisecond)
			}
			check("the changed file", false, 3)
		})
	}
}

// poolClient is the pool's running client of file, and file's URI.
func poolClient(t *testing.T, p *Pool, file string) (*client, string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.clients[intel.Family(intel.FileType(file))]
	if c == nil {
		t.Fatalf("no server runs for %s", file)
	}
	return c, fileURI(file)
}

// waitPublished waits (within a minute) for a publish of uri received
// since the last change, whose first diagnostic is on line.
func waitPublished(t *testing.T, c *client, uri string, line int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		c.mu.Lock()
		_, fresh := c.publishedAt[uri]
		ds := c.published[uri].Diagnostics
		c.mu.Unlock()
		if fresh && len(ds) > 0 && int(ds[0].Range.Start.Line) == line {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no publish of %s with a problem on line %d (fresh %v, last %+v)", uri, line, fresh, ds)
		}
		<-tick.C
	}
}

// notifyPublish tells the fake server to publish uri's current problems.
func notifyPublish(t *testing.T, c *client, uri string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.conn.Notify(ctx, "fake/publish", map[string]string{"uri": uri}); err != nil {
		t.Fatal(err)
	}
}
