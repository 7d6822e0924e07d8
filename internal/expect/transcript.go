package expect

import "fmt"

// Transcript is the state both harnesses judge: every message agentls
// wrote to the client so far, in wire order, and the prompt calls the test
// made through the harness (a harness's own call type, P).
type Transcript[M, P any] struct {
	Messages []M
	Prompts  []P
}

// TranscriptOf is the Source of a Transcript kept in two growing lists,
// each given as its snapshot (the items now, with a channel closed on the
// next change; Log.Snapshot is one): the messages and the prompt calls.
func TranscriptOf[M, P any](messages func() ([]M, <-chan struct{}), prompts func() ([]P, <-chan struct{})) Source[Transcript[M, P]] {
	return func() (Transcript[M, P], []<-chan struct{}) {
		msgs, written := messages()
		calls, returned := prompts()
		return Transcript[M, P]{Messages: msgs, Prompts: calls}, []<-chan struct{}{written, returned}
	}
}

// ReportTranscript is Report for a failed wait on a Transcript: a line for
// each prompt call ("<method> for session <id>: <state>", call saying the
// session and the state) and the last messages (what, each as show has
// it).
func ReportTranscript[M, P any](harness string, f *Failure[Transcript[M, P]], method string, call func(P) (session, state string), what string, show func(M) Shown) string {
	calls := make([]string, 0, len(f.State.Prompts))
	for _, p := range f.State.Prompts {
		session, state := call(p)
		calls = append(calls, fmt.Sprintf("%s for session %s: %s", method, session, state))
	}
	return Report(harness, f, calls, what, f.State.Messages, show)
}
