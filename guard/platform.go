package guard

import "runtime"

// isWindows: on Windows a backslash separates path elements too.
var isWindows = runtime.GOOS == "windows"
