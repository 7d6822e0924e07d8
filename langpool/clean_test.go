package langpool

import (
	"testing"
	"time"
)

// TestAskClean: when the pool asks tsserver whether a file stayed clean
// (clean.go): only a server that offers the command, for a pending file
// whose kept publish is versionless and empty, once per version.
func TestAskClean(t *testing.T) {
	one := 1
	tests := []struct {
		name        string
		checks      bool
		stopping    bool
		pending     bool
		pub         *publishParams
		askedBefore int
		want        bool
	}{
		{"a clean file changed", true, false, true, &publishParams{}, 0, true},
		{"the server cannot be asked", false, false, true, &publishParams{}, 0, false},
		{"not pending", true, false, false, &publishParams{}, 0, false},
		{"never published", true, false, true, nil, 0, false},
		{"its last publish had a problem", true, false, true, &publishParams{Diagnostics: []wireDiagnostic{{Message: "x"}}}, 0, false},
		{"a versioned publish", true, false, true, &publishParams{Version: &one}, 0, false},
		{"this version was asked about", true, false, true, &publishParams{}, 2, false},
		{"an earlier version was asked about", true, false, true, &publishParams{}, 1, true},
		{"the server is stopping", true, true, true, &publishParams{}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const uri = "file:///w/a.ts"
			c := &client{checksClean: tc.checks, stopping: tc.stopping, docs: map[string]*document{uri: {version: 2, askedClean: tc.askedBefore}}, published: map[string]publishParams{}}
			if tc.pub != nil {
				c.published[uri] = *tc.pub
			}
			v, ask := c.askCleanLocked(uri, tc.pending)
			if ask != tc.want || ask && v != 2 {
				t.Fatalf("ask = %v (version %d), want %v", ask, v, tc.want)
			}
			if _, again := c.askCleanLocked(uri, tc.pending); again {
				t.Fatal("asked twice about one version")
			}
		})
	}
}

// TestCleanMark: a version tsserver found clean settles its empty publish
// at once; a late publish with problems (an older text's) makes it pending
// again until the quiet spell; a mark for a version since replaced does
// nothing.
func TestCleanMark(t *testing.T) {
	const uri = "file:///w/a.ts"
	clock := &testClock{t: time.Unix(1e9, 0)}
	c := &client{docs: map[string]*document{uri: {version: 2, lines: 3}}, published: map[string]publishParams{uri: {URI: uri}},
		publishedAt: map[string]time.Time{}, unopenedSize: map[string]int{}, now: clock.now}
	if !c.pendingLocked(uri, clock.now()) {
		t.Fatal("a changed file with no publish since is pending")
	}
	c.markCleanLocked(uri, 1) // an older version's answer
	if !c.pendingLocked(uri, clock.now()) {
		t.Fatal("an older version's answer settled the file")
	}
	c.markCleanLocked(uri, 2)
	if c.pendingLocked(uri, clock.now()) {
		t.Fatal("the version tsserver found clean is still pending")
	}
	c.keepPublished(publishParams{URI: uri, Diagnostics: []wireDiagnostic{{Message: "old text's"}}})
	if !c.pendingLocked(uri, clock.now()) {
		t.Fatal("a late publish with problems left the file settled")
	}
	clock.advance(quietFor(3))
	if c.pendingLocked(uri, clock.now()) {
		t.Fatal("the late publish, with none after it for the quiet spell, does not settle the file (settled.go's rule)")
	}
}
