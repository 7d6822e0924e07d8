package sandbox

// TempRoot is the folder this process keeps its temporary folders in: on
// Unix its own $TMPDIR/agentls-tmp-* folder, locked while the process runs
// and removed by a later agentls once it is gone (so what it holds goes
// with it even when the process is killed); elsewhere the system's
// temporary folder. A folder made in it for a confined command to read
// must be readable by the command's user: the root itself only lets
// others pass through (0711).
func TempRoot() (string, error) { return privateTempRoot() }
