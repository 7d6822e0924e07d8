package server

import "testing"

// TestProgressStep: every transition of a turn's progress, on a report and
// on its end: the state it moves to, what the caller is told to send (the
// state it left) and what a create under way is left to send.
func TestProgressStep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		from        progressState
		end         bool
		want        progressState
		wantPending string
		wantEnded   bool
	}{
		{name: "first report creates", from: progressIdle, want: progressCreating},
		{name: "report while creating keeps the message", from: progressCreating, want: progressCreating, wantPending: "m"},
		{name: "report while running is sent", from: progressRunning, want: progressRunning},
		{name: "report when done is dropped", from: progressDone, want: progressDone},
		{name: "end before any report", from: progressIdle, end: true, want: progressDone},
		{name: "end while creating is left to create", from: progressCreating, end: true, want: progressCreating, wantEnded: true},
		{name: "end while running is sent", from: progressRunning, end: true, want: progressDone},
		{name: "end when done", from: progressDone, end: true, want: progressDone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &turnProgress{state: tt.from}
			if was := p.step(tt.end, "m"); was != tt.from {
				t.Errorf("step returned %d, want the state it left, %d", was, tt.from)
			}
			if p.state != tt.want || p.pending != tt.wantPending || p.ended != tt.wantEnded {
				t.Errorf("after step: state %d, pending %q, ended %v; want %d, %q, %v",
					p.state, p.pending, p.ended, tt.want, tt.wantPending, tt.wantEnded)
			}
		})
	}
}
