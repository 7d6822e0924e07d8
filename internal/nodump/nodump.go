// Package nodump keeps other processes out of agentls's memory: agentls
// holds the model's API key, in its environment and in memory, and runs
// commands the model wrote.
package nodump

// Enable marks this process as not dumpable, where the system allows it:
// on Linux prctl(PR_SET_DUMPABLE, 0), after which no core dump is written
// and /proc/<pid>/environ, mem, maps and the like belong to root, so that a
// process of the same user (a command agentls runs included) can neither
// read them nor ptrace agentls. Root, or a process with CAP_SYS_PTRACE,
// still can. Elsewhere Enable does nothing.
func Enable() error { return enable() }
