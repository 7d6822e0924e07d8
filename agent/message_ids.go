package agent

import (
	"strconv"

	"github.com/google/uuid"
)

// newMessageID is the id of a new message: a UUIDv7, so ids sort by time.
func newMessageID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString() // the clock failed; a random id still names the message
	}
	return id.String()
}

// messageIDSpace is the namespace of derived message ids.
var messageIDSpace = uuid.MustParse("7b0c4a36-5b1e-4c4e-9d0f-5a6e1c2d3f40")

// derivedMessageID is the id of a message persisted before messages had
// ids: a name-based UUID (v5) of the session id and the message's index in
// the session file, the same on every load.
func derivedMessageID(sessionID string, index int) string {
	return uuid.NewSHA1(messageIDSpace, []byte(sessionID+"/"+strconv.Itoa(index))).String()
}
