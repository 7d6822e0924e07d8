package langpool

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzBoundDiagnostics: whatever a server publishes, what is kept holds at
// most maxFileDiagnostics diagnostics, each text at most maxDiagnosticText
// bytes (plus the cut mark), valid UTF-8 when the input was, and a prefix
// of what the server sent.
func FuzzBoundDiagnostics(f *testing.F) {
	f.Add("bad line", "fake", 3)
	f.Add(strings.Repeat("é", maxDiagnosticText), "x", maxFileDiagnostics+5)
	f.Add(strings.Repeat("a", maxDiagnosticText-1)+"日本", strings.Repeat("s", maxDiagnosticText+1), 1)
	f.Fuzz(func(t *testing.T, msg, source string, n int) {
		if n < 0 || n > 3*maxFileDiagnostics {
			return
		}
		ds := make([]wireDiagnostic, n)
		for i := range ds {
			ds[i] = wireDiagnostic{Message: msg, Source: source}
		}
		got := boundDiagnostics(ds)
		if len(got) > maxFileDiagnostics || len(got) != min(n, maxFileDiagnostics) {
			t.Fatalf("%d diagnostics kept of %d", len(got), n)
		}
		for _, d := range got {
			for _, pair := range [][2]string{{d.Message, msg}, {d.Source, source}} {
				kept, sent := pair[0], pair[1]
				if len(kept) > maxDiagnosticText+len("…") {
					t.Fatalf("%d bytes kept", len(kept))
				}
				if !strings.HasPrefix(sent, strings.TrimSuffix(kept, "…")) {
					t.Fatalf("%q is no prefix of what was sent", kept)
				}
				if utf8.ValidString(sent) && !utf8.ValidString(kept) {
					t.Fatalf("cut inside a character: %q", kept)
				}
			}
		}
	})
}

// FuzzLatePublishNeverSettles interleaves changes of a file, publishes of
// it (versionless, or versioned with its current or an older version),
// the clock's moves and questions. Whenever the file is reported settled,
// its diagnostics are those of a publish received after its latest change
// (versioned: for its current version), and a versionless one has had no
// publish after it for quietFor; once a versionless publish came after the
// latest change, the file settles by itself when quietFor passes.
func FuzzLatePublishNeverSettles(f *testing.F) {
	f.Add([]byte{0, 1, 3, 2, 200, 3, 0, 1, 3, 2, 100, 3, 1, 2, 255, 2, 255, 3})
	f.Add([]byte{0, 4, 0, 3, 0, 1, 4, 1, 3})
	f.Add([]byte{0, 1, 2, 255, 2, 255, 2, 255, 0, 3, 1, 0, 1, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		const uri = "file:///w/a.ts"
		clock := &testClock{t: time.Unix(1e9, 0)}
		c := &client{argv: []string{"fuzz"}, docs: map[string]*document{}, published: map[string]publishParams{},
			publishedAt: map[string]time.Time{}, unopenedSize: map[string]int{}, now: clock.now}
		type received struct {
			afterChange bool // no change came since it was received
			version     *int
			at          time.Time
		}
		var pubs []*received // by the number in its message
		changes := 0
		publish := func(version *int) {
			for _, r := range pubs {
				r.afterChange = false // superseded: only the last one is kept
			}
			pubs = append(pubs, &received{afterChange: true, version: version, at: clock.now()})
			p := publishParams{URI: uri, Version: version, Diagnostics: []wireDiagnostic{{Message: fmt.Sprint(len(pubs) - 1)}}}
			c.mu.Lock()
			c.keepPublished(p)
			c.mu.Unlock()
		}
		ask := func() {
			ds, pending, err := c.diagnostics(context.Background(), uri, 0)
			if err != nil || pending {
				return
			}
			if changes == 0 {
				return // never opened: the publish of a file agentls did not open counts as it is
			}
			var n int
			if len(ds) != 1 || func() error { _, err := fmt.Sscan(ds[0].Message, &n); return err }() != nil || n >= len(pubs) {
				t.Fatalf("settled with %+v", ds)
			}
			r, doc := pubs[n], c.docs[uri]
			switch {
			case r.version != nil && *r.version < doc.version:
				t.Fatalf("settled with publish %d, for version %d, the file is at %d", n, *r.version, doc.version)
			case r.version == nil && !r.afterChange:
				t.Fatalf("settled with publish %d, received before the latest change", n)
			case r.version == nil && clock.now().Sub(r.at) < quietFor(doc.lines):
				t.Fatalf("settled with publish %d, %v after it (quiet spell %v)", n, clock.now().Sub(r.at), quietFor(doc.lines))
			}
		}
		for i := 0; i < len(ops); i++ {
			switch ops[i] % 5 {
			case 0: // a change (the first opens the file)
				changes++
				c.noteSent(uri, strings.Repeat("line\n", changes*97%9000))
				for _, r := range pubs {
					r.afterChange = false
				}
			case 1:
				publish(nil)
			case 2: // the clock moves
				if i+1 < len(ops) {
					i++
					clock.advance(time.Duration(ops[i]) * 5 * time.Millisecond)
				}
			case 3:
				ask()
			case 4: // versioned: the current version, or the one before
				if doc := c.docs[uri]; doc != nil {
					v := doc.version - int(ops[i]/5%2)
					publish(&v)
				}
			}
		}
		// The last publish, versionless after the latest change: the file
		// settles by itself once the quiet spell passed.
		if n := len(pubs); changes > 0 && n > 0 && pubs[n-1].version == nil && pubs[n-1].afterChange {
			clock.advance(quietFor(c.docs[uri].lines))
			if _, pending, _ := c.diagnostics(context.Background(), uri, 0); pending {
				t.Fatal("still pending after the quiet spell")
			}
		}
	})
}
