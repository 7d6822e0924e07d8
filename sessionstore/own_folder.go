package sessionstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOwnFolder makes sure the store writes only in a folder of its own:
// the store's folder (.agentls/chats) and the one holding it (.agentls)
// must each be a real folder, or not exist yet (they are then created as
// real folders). A repository can ship either as a symbolic link: out of
// the workspace (session files and locks written there), or into src/,
// where the session files would be the agent's to edit (its mode, its
// attached plan) since the guard keeps tools out of .agentls/ by name and
// by where a path leads, not by where .agentls leads.
func (s *Store) checkOwnFolder() error {
	for _, d := range []string{filepath.Dir(s.dir), s.dir} {
		fi, err := os.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // and so is the folder below it
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: agentls keeps its sessions only in a real folder of its own (remove the link)", d)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a folder: agentls keeps its sessions only in a real folder of its own (remove it)", d)
		}
	}
	return nil
}
