// Package rule compiles and evaluates the expressions of `rule` handlers:
// predicates over the canonical event, answered in-process, with no
// program started.
//
// The language is expr's (github.com/expr-lang/expr), chosen by measuring
// it against CEL in a fresh process, as every hook call is one
// (docs/performance.md): its compile and evaluation of a typical rule set
// cost a tenth of CEL's, and it adds 0.1 ms to the start of the binary
// against CEL's 1.5 ms. Expressions are type-checked against Env, so that
// `command == 1` or a misspelt field is an error when the config is read,
// never a surprise during a tool call.
package rule

import (
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp/syntax"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Rule is one checked expression. It is compiled to a program on its
// first Match: a config is read on every call, and most of its rules are
// not for the event at hand (the check, which finds every mistake, costs
// about as much again as compiling).
type Rule struct {
	Source string
	tree   *parser.Tree
	once   sync.Once
	prog   *vm.Program
	err    error
}

// Error is an expression that does not compile. Offset counts runes from
// the start of the expression, so that the caller can place it in the file
// the expression came from.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// funcs are the functions expressions may call besides expr's builtins.
// (A function, not a table: the types' new would allocate at the start
// of every process.)
func funcs() []exprFunc {
	return []exprFunc{
		{"glob", func(args ...any) (any, error) {
			return Glob(args[0].(string), args[1].(string)), nil
		}, new(func(string, string) bool)},
		{matchRE, func(args ...any) (any, error) {
			return args[1].(*lazyRE).match(args[0].(string)), nil
		}, new(func(string, *lazyRE) bool)},
		{"base", func(args ...any) (any, error) {
			return path.Base(args[0].(string)), nil
		}, new(func(string) string)},
	}
}

// exprFunc is a function for expr.Function: its name, body and type.
type exprFunc struct {
	name string
	fn   func(args ...any) (any, error)
	typ  any
}

// config is the compiler's configuration, built once per process: building
// it reflects over Env and copies expr's table of builtins, which cost as
// much as compiling a rule (measured: a third of expr.Compile's time).
// (A sync.Once, not sync.OnceValue, whose closure every process would
// allocate at start.)
func config() *conf.Config {
	configOnce.Do(func() { configValue = newConfig() })
	return configValue
}

var (
	configOnce  sync.Once
	configValue *conf.Config
)

func newConfig() *conf.Config {
	// The types of the fields are those of an empty environment's.
	zero := &Env{Input: map[string]any{}, Paths: []string{}, Commands: []Command{}}
	zero.Runs = zero.runs
	c := conf.CreateNew()
	opts := []expr.Option{expr.Env(zero.vars()), expr.AsBool()}
	for _, f := range funcs() {
		opts = append(opts, expr.Function(f.name, f.fn, f.typ))
	}
	for _, o := range opts {
		o(c)
	}
	c.Check()
	return c
}

// Compile parses and type-checks an expression. Constant regular
// expressions (`s matches "re"`) and glob patterns are checked here too.
func Compile(src string) (r *Rule, err error) {
	defer func() {
		// The compiler is not ours: whatever it does on input it did not
		// expect is this expression's error, not a crash of the call.
		if p := recover(); p != nil {
			r, err = nil, &Error{Msg: fmt.Sprintf("the expression does not compile: %v", p)}
		}
	}()
	c := config()
	tree, err := parser.ParseWithConfig(src, c)
	if err != nil {
		return nil, exprError(err)
	}
	// Constants first: a regular expression and a glob pattern are
	// checked here; the regular expression is compiled when a call first
	// reaches it (lazyRE).
	v := &constants{}
	ast.Walk(&tree.Node, v)
	if v.err != nil {
		return nil, v.err
	}
	if _, err := new(checker.Checker).PatchAndCheck(tree, c); err != nil {
		return nil, exprError(err)
	}
	return &Rule{Source: src, tree: tree}, nil
}

// program compiles the checked tree, once.
func (r *Rule) program() (*vm.Program, error) {
	r.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("the expression does not compile: %v", p)
			}
		}()
		// Not optimized: expr's optimizer folds constants and turns
		// `x in [...]` into a map lookup, which repays its cost only over
		// many evaluations; a rule is evaluated once per process.
		r.prog, r.err = compiler.Compile(r.tree, config())
		r.tree = nil
	})
	return r.prog, r.err
}

// exprError turns expr's error, which carries a position, into ours.
func exprError(err error) error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return &Error{Offset: fe.From, Msg: fe.Message}
	}
	return &Error{Msg: err.Error()}
}

// constants turns `s matches "re"` with a constant "re" into a call of
// matchRE with a *lazyRE, after checking the expression, and checks
// constant glob patterns.
type constants struct{ err error }

func (v *constants) Visit(n *ast.Node) {
	if v.err != nil {
		return
	}
	switch node := (*n).(type) {
	case *ast.BinaryNode:
		s, ok := node.Right.(*ast.StringNode)
		if !ok || node.Operator != "matches" {
			return
		}
		// syntax.Parse is where regexp.Compile finds every error it
		// reports: the rest of its work never fails.
		parsed, err := syntax.Parse(s.Value, syntax.Perl)
		if err != nil {
			v.err = &Error{Offset: s.Location().From, Msg: fmt.Sprintf("regular expression %q: %v", s.Value, err)}
			return
		}
		re := newLazyRE(s.Value, parsed)
		re1 := &ast.ConstantNode{Value: re}
		re1.SetLocation(s.Location())
		call := &ast.CallNode{Callee: &ast.IdentifierNode{Value: matchRE}, Arguments: []ast.Node{node.Left, re1}}
		call.Callee.SetLocation(node.Location())
		ast.Patch(n, call)
	case *ast.CallNode:
		id, ok := node.Callee.(*ast.IdentifierNode)
		if !ok || id.Value != "glob" || len(node.Arguments) != 2 {
			return
		}
		if s, ok := node.Arguments[1].(*ast.StringNode); ok {
			if err := ValidGlob(s.Value); err != nil {
				v.err = &Error{Offset: s.Location().From, Msg: fmt.Sprintf("glob pattern %q: %v", s.Value, err)}
			}
		}
	}
}

// matchRE is the function `s matches "re"` becomes; its name cannot be
// written in an expression.
const matchRE = "$matches"

// Match evaluates the rule against env.
func (r *Rule) Match(env *Env) (bool, error) {
	prog, err := r.program()
	if err != nil {
		return false, err
	}
	out, err := vm.Run(prog, env.vars())
	if err != nil {
		return false, err
	}
	b, ok := out.(bool)
	if !ok {
		// AsBool makes this unreachable; a nil from a failed lookup is not
		// a match either way.
		return false, fmt.Errorf("the expression gave %s, not true or false", reflect.TypeOf(out))
	}
	return b, nil
}
