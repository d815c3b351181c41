package contract

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/difffuzz/difffuzz/internal/tomlstrict"
)

// Resolve is the contract a -contract flag or a `contract =` key names: a
// built-in by name, else a TOML file by path (relative to dir, the config
// file's folder, when not absolute). "" is the default.
func Resolve(nameOrPath, dir string) (Contract, error) {
	if nameOrPath == "" {
		return Default, nil
	}
	if c, ok := Builtin(nameOrPath); ok {
		return c, nil
	}
	if !strings.ContainsAny(nameOrPath, `/\`) && !strings.HasSuffix(nameOrPath, ".toml") {
		return Contract{}, fmt.Errorf("contract %q: no built-in of that name (built-ins: %s) and not a path to a .toml file", nameOrPath, strings.Join(Names(), ", "))
	}
	path := nameOrPath
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return Load(path)
}

// Load reads a contract file: a built-in named by `base` (default
// "difffuzz") with the choices the file sets. Errors name the file, and the
// line of an unknown key or a bad value.
func Load(path string) (Contract, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Contract{}, fmt.Errorf("contract: %w", err)
	}
	c, err := Parse(data, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	if err != nil {
		return Contract{}, fmt.Errorf("contract %s:%w", path, err)
	}
	if c.Source, err = filepath.Abs(path); err != nil {
		return Contract{}, fmt.Errorf("contract %s: %w", path, err)
	}
	return c, nil
}

// Parse reads a contract document; name is its name when the file sets
// none. Errors start with the line number where TOML gives one.
func Parse(data []byte, name string) (Contract, error) {
	var head struct {
		Base string `toml:"base"`
	}
	if err := toml.Unmarshal(data, &head); err != nil {
		return Contract{}, tomlstrict.Decode(data, &head) // the same error, with its line
	}
	base := head.Base
	if base == "" {
		base = Default.Name
	}
	c, ok := Builtin(base)
	if !ok {
		return Contract{}, fmt.Errorf(" base = %q: want a built-in (%s)", base, strings.Join(Names(), ", "))
	}
	c.Name = ""
	if err := tomlstrict.Decode(data, &c); err != nil {
		return Contract{}, err
	}
	c.Base = base
	if c.Name == "" {
		c.Name = name
	}
	if _, clash := Builtin(c.Name); clash {
		return Contract{}, fmt.Errorf(" name = %q is a built-in's: a file's contract needs a name of its own", c.Name)
	}
	if err := c.Check(); err != nil {
		return Contract{}, fmt.Errorf(" %w", err)
	}
	return c, nil
}
