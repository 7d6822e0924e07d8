package sandbox

import "sync/atomic"

// TempRoot is the folder this process keeps its temporary folders in: on
// Unix its own $TMPDIR/agentls-tmp-* folder, locked while the process runs
// and removed by a later agentls once it is gone (so what it holds goes
// with it even when the process is killed); elsewhere the system's
// temporary folder. A folder made in it for a confined command to read
// must be readable by the command's user: the root itself only lets
// others pass through (0711).
func TempRoot() (string, error) { return privateTempRoot() }

// staleTempHook is SetStaleTempHook's function (nil: none).
var staleTempHook atomic.Pointer[func(dir string)]

// SetStaleTempHook has f told each per-process folder of a gone agentls
// right before a sweep removes it, while it is whole and locked, so that
// what lies outside it for what it held can go too (the demo's workspace's
// cache folders). Set it once, before the first sweep; nil removes it.
func SetStaleTempHook(f func(dir string)) {
	if f == nil {
		staleTempHook.Store(nil)
		return
	}
	staleTempHook.Store(&f)
}
