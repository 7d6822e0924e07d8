package proctest

import (
	"strconv"
	"strings"
)

// LoggedChild is the pid on the last `child <pid>` line of log, the call
// log the hostile MCP test server (mcpclient/testdata/hostile) writes when
// HOSTILE_CHILD makes it start a child; 0 when there is none.
func LoggedChild(log []byte) int {
	pid := 0
	for _, line := range strings.Split(string(log), "\n") {
		if v, ok := strings.CutPrefix(line, "child "); ok {
			pid, _ = strconv.Atoi(v)
		}
	}
	return pid
}
