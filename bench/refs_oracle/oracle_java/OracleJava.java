// The Java side of the refs oracle: parses and attributes every .java file under a corpus root with
// the JDK's own compiler (com.sun.source JavacTask, Trees, javax.lang.model), then prints as one JSON
// document every class-like type, method and field declared there and, for each, every use the
// compiler resolved to it (identifiers, member selects, method references, imports), and the names
// written at its constructors (never a use).
//
// A use belongs to the one element javac binds it to, as go/types and jedi do: a call through a
// supertype's or an interface's static type is a use of that supertype's method, not of an override.
//
//     java OracleJava ROOT [javac options...]
//
// Positions are 1-based lines and 1-based code-point columns of the identifier's first character;
// files with a compile error are listed as unresolved.
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public final class OracleJava {
    private final Path root;
    private final Map<Element, String> ids = new IdentityHashMap<>();
    private final List<String> definitions = new ArrayList<>();
    private final Map<String, TreeSet<String>> uses = new TreeMap<>();
    private final Map<String, TreeSet<String>> declarations = new TreeMap<>();
    private Trees trees;

    private OracleJava(Path root) {
        this.root = root;
    }

    public static void main(String[] args) throws IOException {
        Path root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<String> options = new ArrayList<>(List.of(args).subList(1, args.length));
        new OracleJava(root).run(options, System.out);
    }

    private void run(List<String> options, PrintStream out) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p)).sorted().collect(Collectors.toList());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager manager = compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8);
        List<String> all = new ArrayList<>(List.of("-proc:none", "-implicit:none", "-nowarn", "-Xlint:none", "-encoding", "UTF-8"));
        all.addAll(options);
        JavacTask task = (JavacTask) compiler.getTask(null, manager, diagnostics, all, null, manager.getJavaFileObjectsFromPaths(files));
        trees = Trees.instance(task);
        List<CompilationUnitTree> units = new ArrayList<>();
        task.parse().forEach(units::add);
        task.analyze();
        for (CompilationUnitTree unit : units) {
            new Declarations(unit).scan(unit, null);
        }
        constructors.forEach((owner, places) -> {
            String id = ids.get(owner);
            if (id != null) {
                declarations.computeIfAbsent(id, k -> new TreeSet<>()).addAll(places);
            }
        });
        for (CompilationUnitTree unit : units) {
            new Uses(unit).scan(unit, null);
        }
        TreeSet<String> unresolved = new TreeSet<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) {
                unresolved.add(rel(d.getSource()));
                System.err.println(d);
            }
        }
        StringBuilder json = new StringBuilder();
        json.append("{\"oracle\":").append(quote("javac " + System.getProperty("java.version") + " com.sun.source Trees"));
        json.append(",\"files\":").append(files.size());
        json.append(",\"definitions\":[").append(String.join(",", definitions)).append(']');
        json.append(",\"uses\":").append(places(uses));
        json.append(",\"declarations\":").append(places(declarations));
        json.append(",\"unresolved\":[").append(unresolved.stream().map(OracleJava::quote).collect(Collectors.joining(","))).append("]}");
        out.println(json);
    }

    private String rel(JavaFileObject source) {
        return root.relativize(Paths.get(source.toUri()).normalize()).toString().replace('\\', '/');
    }

    /** A place as [file, line, column] from a character offset into the unit's text. */
    private final class Unit {
        final CompilationUnitTree tree;
        final String file;
        final CharSequence text;
        final SourcePositions positions;

        Unit(CompilationUnitTree tree) {
            this.tree = tree;
            this.file = rel(tree.getSourceFile());
            CharSequence content;
            try {
                content = tree.getSourceFile().getCharContent(true);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            this.text = content;
            this.positions = trees.getSourcePositions();
        }

        String place(long offset) {
            long line = tree.getLineMap().getLineNumber(offset);
            long lineStart = tree.getLineMap().getStartPosition(line);
            int col = Character.codePointCount(text, (int) lineStart, (int) offset) + 1;
            return "[" + quote(file) + "," + line + "," + col + "]";
        }

        /** Where `name` is written in a declaration: the first whole-word occurrence at or after
         * `from` (the end of the modifiers, or of the type before the name) matching `shape`. */
        long nameAt(long from, String name, String shape) {
            Matcher m = Pattern.compile(shape.replace("NAME", Pattern.quote(name))).matcher(text);
            return m.find((int) Math.max(0, from)) ? m.start(1) : -1;
        }

        /** Whether `name` is written as a whole word at `offset`. */
        boolean written(long offset, String name) {
            int at = (int) offset;
            int end = at + name.length();
            return end <= text.length()
                    && text.subSequence(at, end).toString().equals(name)
                    && (end == text.length() || !Character.isJavaIdentifierPart(text.charAt(end)))
                    && (at == 0 || !Character.isJavaIdentifierPart(text.charAt(at - 1)));
        }

        long end(Tree tree) {
            return tree == null ? -1 : positions.getEndPosition(this.tree, tree);
        }

        /** Where a declaration's name can start: past the node's start and past the end of every
         * part written before the name (modifiers, type parameters, the type); a part without text
         * ends at -1. */
        long after(Tree node, List<? extends Tree> parts) {
            long from = positions.getStartPosition(this.tree, node);
            for (Tree part : parts) {
                from = Math.max(from, end(part));
            }
            return from;
        }
    }

    private static final String TYPE_NAME = "\\b(?:class|interface|enum|record)\\s+(NAME)\\b";
    private static final String MEMBER_NAME = "(?<![\\w$])(NAME)(?![\\w$])";

    /** Every class-like type, method and field declared in a unit, with an id per element. */
    private final class Declarations extends TreePathScanner<Void, Void> {
        final Unit unit;

        Declarations(CompilationUnitTree tree) {
            unit = new Unit(tree);
        }

        void add(Element element, String kind, long at, String name) {
            if (element == null || at < 0) {
                return;
            }
            String place = unit.place(at);
            String id = place.substring(1, place.length() - 1).replace("\"", "");
            ids.put(element, id);
            Element outer = element.getEnclosingElement();
            String container = outer instanceof TypeElement && !((TypeElement) outer).getSimpleName().isEmpty() ? quote(outer.getSimpleName().toString()) : "null";
            String[] parts = place.substring(1, place.length() - 1).split(",");
            definitions.add("{\"name\":" + quote(name) + ",\"kind\":" + quote(kind) + ",\"container\":" + container
                    + ",\"file\":" + parts[0] + ",\"line\":" + parts[1] + ",\"col\":" + parts[2] + ",\"oracle_id\":" + quote(id) + "}");
        }

        @Override
        public Void visitClass(ClassTree node, Void p) {
            Element element = trees.getElement(getCurrentPath());
            String name = node.getSimpleName().toString();
            if (!name.isEmpty() && element != null) {
                String kind = switch (element.getKind()) {
                    case INTERFACE, ANNOTATION_TYPE -> "interface";
                    case ENUM -> "enum";
                    default -> "class";
                };
                add(element, kind, unit.nameAt(unit.after(node, List.of(node.getModifiers())), name, TYPE_NAME), name);
            }
            return super.visitClass(node, p);
        }

        @Override
        public Void visitMethod(MethodTree node, Void p) {
            Element element = trees.getElement(getCurrentPath());
            if (element != null && element.getKind() == ElementKind.CONSTRUCTOR) {
                // The class's name written at a constructor: a declaration, never a use.
                TypeElement owner = (TypeElement) element.getEnclosingElement();
                List<Tree> before = new ArrayList<>(node.getTypeParameters());
                before.add(node.getModifiers());
                long at = unit.nameAt(unit.after(node, before), owner.getSimpleName().toString(), MEMBER_NAME);
                if (at >= 0) {
                    constructors.computeIfAbsent(owner, k -> new ArrayList<>()).add(unit.place(at));
                }
            } else if (element != null) {
                List<Tree> before = new ArrayList<>(node.getTypeParameters());
                before.add(node.getModifiers());
                before.add(node.getReturnType());
                add(element, "method", unit.nameAt(unit.after(node, before), node.getName().toString(), MEMBER_NAME), node.getName().toString());
            }
            return super.visitMethod(node, p);
        }

        @Override
        public Void visitVariable(VariableTree node, Void p) {
            Element element = trees.getElement(getCurrentPath());
            if (element != null && (element.getKind() == ElementKind.FIELD || element.getKind() == ElementKind.ENUM_CONSTANT)) {
                String kind = element.getKind() == ElementKind.FIELD ? "field" : "constant";
                // An enum constant's implicit type has no text: its name comes first.
                List<Tree> before = element.getKind() == ElementKind.FIELD ? List.of(node.getModifiers(), node.getType()) : List.of();
                add(element, kind, unit.nameAt(unit.after(node, before), node.getName().toString(), MEMBER_NAME), node.getName().toString());
            }
            return super.visitVariable(node, p);
        }
    }

    private final Map<Element, List<String>> constructors = new IdentityHashMap<>();

    /** Every name in a unit that javac resolved to an element declared in the corpus. */
    private final class Uses extends TreePathScanner<Void, Void> {
        final Unit unit;

        Uses(CompilationUnitTree tree) {
            unit = new Unit(tree);
        }

        void use(Element element, String name, long at) {
            if (element == null || at < 0) {
                return;
            }
            if (element.getKind() == ElementKind.CONSTRUCTOR) {
                return; // `new Foo()` and `Foo::new`: the class's name is its own identifier
            }
            String id = ids.get(element);
            if (id == null || !element.getSimpleName().contentEquals(name) || !unit.written(at, name)) {
                return; // not the corpus's, or a tree javac made up (an enum constant's type)
            }
            uses.computeIfAbsent(id, k -> new TreeSet<>()).add(unit.place(at));
        }

        @Override
        public Void visitIdentifier(IdentifierTree node, Void p) {
            use(trees.getElement(getCurrentPath()), node.getName().toString(), unit.positions.getStartPosition(unit.tree, node));
            return super.visitIdentifier(node, p);
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void p) {
            String name = node.getIdentifier().toString();
            long at = unit.end(node) - name.length();
            use(trees.getElement(getCurrentPath()), name, at);
            return super.visitMemberSelect(node, p);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void p) {
            String name = node.getName().toString();
            use(trees.getElement(getCurrentPath()), name, unit.end(node) - name.length());
            return super.visitMemberReference(node, p);
        }

        @Override
        public Void visitImport(ImportTree node, Void p) {
            // `import static p.Type.name;` names every member called `name` (javac resolves no
            // single element for it).
            if (node.isStatic() && node.getQualifiedIdentifier() instanceof MemberSelectTree) {
                MemberSelectTree select = (MemberSelectTree) node.getQualifiedIdentifier();
                String name = select.getIdentifier().toString();
                Element type = trees.getElement(new TreePath(new TreePath(getCurrentPath(), select), select.getExpression()));
                if (type instanceof TypeElement) {
                    for (Element member : type.getEnclosedElements()) {
                        use(member, name, unit.end(select) - name.length());
                    }
                }
                return scan(select.getExpression(), p);
            }
            return super.visitImport(node, p);
        }
    }

    private String places(Map<String, TreeSet<String>> map) {
        return map.entrySet().stream()
                .map(e -> quote(e.getKey()) + ":[" + String.join(",", e.getValue()) + "]")
                .collect(Collectors.joining(",", "{", "}"));
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
