// Command oracle_go is the Go side of the refs oracle: it type-checks every package under a
// GOPATH src directory with go/types (tests included, dependencies from source) and prints, as
// JSON, every definition at package and type level and every use of each (types.Info.Uses,
// generic instantiations mapped to their origin). Positions are 1-based lines and 1-based
// code-point columns; files the checker could not fully resolve are listed apart.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"
)

type definition struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Container *string `json:"container"`
	File      string  `json:"file"`
	Line      int     `json:"line"`
	Col       int     `json:"col"`
	OracleID  string  `json:"oracle_id"`
}

type answer struct {
	Oracle      string                    `json:"oracle"`
	Files       int                       `json:"files"`
	Definitions []definition              `json:"definitions"`
	Uses        map[string][][3]any       `json:"uses"`
	Unresolved  []string                  `json:"unresolved"`
	Errors      map[string]int            `json:"errors"`
}

var (
	src       string
	fset      = token.NewFileSet()
	lines     = map[string][]string{}
	uses      = map[string][][3]any{}
	defs      []definition
	seenDefs  = map[string]bool{}
	errFiles  = map[string]int{}
	checked   = map[string]bool{}
)

func rel(file string) string {
	r, err := filepath.Rel(src, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(r)
}

func col(file string, line, byteCol int) int {
	text, ok := lines[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err == nil {
			text = strings.Split(string(data), "\n")
		}
		lines[file] = text
	}
	if line-1 >= len(text) || byteCol-1 > len(text[line-1]) {
		return byteCol
	}
	return utf8.RuneCountInString(text[line-1][:byteCol-1]) + 1
}

func key(pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

func origin(obj types.Object) types.Object {
	switch o := obj.(type) {
	case *types.Func:
		return o.Origin()
	case *types.Var:
		return o.Origin()
	}
	return obj
}

func addDef(ident *ast.Ident, kind string, container string) {
	k := key(ident.Pos())
	if seenDefs[k] || ident.Name == "_" {
		return
	}
	seenDefs[k] = true
	p := fset.Position(ident.Pos())
	var c *string
	if container != "" {
		c = &container
	}
	defs = append(defs, definition{ident.Name, kind, c, rel(p.Filename), p.Line, col(p.Filename, p.Line, p.Column), k})
}

func receiverName(expr ast.Expr) string {
	for {
		switch e := expr.(type) {
		case *ast.StarExpr:
			expr = e.X
		case *ast.IndexExpr:
			expr = e.X
		case *ast.IndexListExpr:
			expr = e.X
		case *ast.ParenExpr:
			expr = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

func collectDefs(file *ast.File) {
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				addDef(d.Name, "method", receiverName(d.Recv.List[0].Type))
			} else {
				addDef(d.Name, "function", "")
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					switch t := s.Type.(type) {
					case *ast.InterfaceType:
						addDef(s.Name, "interface", "")
						for _, m := range t.Methods.List {
							for _, n := range m.Names {
								addDef(n, "method", s.Name.Name)
							}
						}
					case *ast.StructType:
						addDef(s.Name, "type", "")
						for _, f := range t.Fields.List {
							for _, n := range f.Names {
								addDef(n, "field", s.Name.Name)
							}
						}
					default:
						addDef(s.Name, "type", "")
					}
				case *ast.ValueSpec:
					kind := "variable"
					if d.Tok == token.CONST {
						kind = "constant"
					}
					for _, n := range s.Names {
						addDef(n, kind, "")
					}
				}
			}
		}
	}
}

func check(path string, files []*ast.File, imp types.Importer) {
	conf := types.Config{
		Importer: imp,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errFiles[fset.Position(te.Pos).Filename]++
			}
		},
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf.Check(path, fset, files, info) // errors are recorded per file; the info is still filled
	for ident, obj := range info.Uses {
		obj = origin(obj)
		if obj == nil || !obj.Pos().IsValid() {
			continue
		}
		p := fset.Position(ident.Pos())
		k := key(obj.Pos())
		uses[k] = append(uses[k], [3]any{rel(p.Filename), p.Line, col(p.Filename, p.Line, p.Column)})
	}
	for _, f := range files {
		collectDefs(f)
		checked[fset.Position(f.Pos()).Filename] = true
	}
}

func parse(dir string, names []string) []*ast.File {
	var out []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			errFiles[filepath.Join(dir, name)]++
		}
		if f != nil {
			out = append(out, f)
		}
	}
	return out
}

func main() {
	src, _ = filepath.Abs(os.Args[1])
	ctx := build.Default
	ctx.CgoEnabled = false
	imp := importer.ForCompiler(fset, "source", nil)
	var dirs []string
	var all []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			all = append(all, p)
			dir := filepath.Dir(p)
			if len(dirs) == 0 || dirs[len(dirs)-1] != dir {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	for _, dir := range dirs {
		pkg, err := ctx.ImportDir(dir, 0)
		if err != nil && pkg == nil {
			continue
		}
		path := filepath.ToSlash(rel(dir))
		check(path, parse(dir, append(append([]string{}, pkg.GoFiles...), pkg.TestGoFiles...)), imp)
		if len(pkg.XTestGoFiles) > 0 {
			check(path+"_test", parse(dir, pkg.XTestGoFiles), imp)
		}
	}
	var unresolved []string
	errors := map[string]int{}
	for _, f := range all {
		if !checked[f] || errFiles[f] > 0 {
			unresolved = append(unresolved, rel(f))
		}
		if errFiles[f] > 0 {
			errors[rel(f)] = errFiles[f]
		}
	}
	sort.Strings(unresolved)
	for k := range uses {
		sort.Slice(uses[k], func(i, j int) bool { return fmt.Sprint(uses[k][i]) < fmt.Sprint(uses[k][j]) })
	}
	out := answer{"go/types " + runtime.Version(), len(all), defs, uses, unresolved, errors}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
