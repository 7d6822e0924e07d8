package intel

import (
	"path/filepath"
	"strings"
)

// extTypes maps file extensions to the language ids of the file types the
// pool and the editors know.
var extTypes = map[string]string{
	".go": "go",
	".ts": "typescript", ".tsx": "typescriptreact", ".mts": "typescript", ".cts": "typescript",
	".js": "javascript", ".jsx": "javascriptreact", ".mjs": "javascript", ".cjs": "javascript",
	".py": "python", ".pyi": "python",
	".rs": "rust",
	".c":  "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp",
}

// FileType is the language id of path ("" for a type none knows).
func FileType(path string) string {
	return extTypes[strings.ToLower(filepath.Ext(path))]
}

// Family is the configuration key of a language id: the file types one
// server serves share it (typescriptreact and javascript are
// "typescript", cpp is "c").
func Family(languageID string) string {
	switch languageID {
	case "typescript", "typescriptreact", "javascript", "javascriptreact":
		return "typescript"
	case "c", "cpp":
		return "c"
	}
	return languageID
}
