// TypeScript side of the oracle: the `typescript` package's language service over every .ts/.tsx
// file under the corpus root. Reads one JSON request per line on stdin ({"op": "defs"} or
// {"op": "refs", "at": [[file, utf16Offset], ...]}) and writes one JSON answer per line.
// Positions out: 1-based line, 1-based code-point column of the identifier.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const ts = require(process.env.ORACLE_TYPESCRIPT || "typescript");

const root = path.resolve(process.argv[2]);

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

const files = walk(root, []);
const texts = new Map(files.map((f) => [f, fs.readFileSync(f, "utf8")]));
const options = {
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  lib: ["lib.es2020.d.ts", "lib.dom.d.ts"],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  jsx: ts.JsxEmit.Preserve,
  experimentalDecorators: true,
};
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: () => "1",
  getScriptSnapshot: (name) => {
    const text = texts.has(name) ? texts.get(name) : fs.existsSync(name) ? fs.readFileSync(name, "utf8") : undefined;
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists,
  readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const program = service.getProgram();
const checker = program.getTypeChecker();

function rel(file) {
  return path.relative(root, file).split(path.sep).join("/");
}

function location(sf, pos) {
  const { line, character } = sf.getLineAndCharacterOfPosition(pos);
  const lineStart = sf.getPositionOfLineAndCharacter(line, 0);
  const col = [...sf.text.slice(lineStart, lineStart + character)].length + 1;
  return [rel(sf.fileName), line + 1, col];
}

const DECLARATION_KINDS = new Set(
  [
    "ClassDeclaration", "ClassExpression", "InterfaceDeclaration", "TypeAliasDeclaration", "EnumDeclaration",
    "EnumMember", "FunctionDeclaration", "FunctionExpression", "MethodDeclaration", "MethodSignature",
    "PropertyDeclaration", "PropertySignature", "PropertyAssignment", "GetAccessor", "SetAccessor",
    "VariableDeclaration", "Parameter", "ModuleDeclaration", "TypeParameter", "BindingElement",
  ].map((k) => ts.SyntaxKind[k]),
);

function nodeAt(sf, pos) {
  let node = sf;
  for (;;) {
    const child = node.getChildren(sf).find((c) => c.getStart(sf) <= pos && pos < c.getEnd());
    if (!child) return node;
    node = child;
  }
}

/** A reference on an identifier token of the code: not in a comment (a JSDoc `{@link x}` is
 * trivia before the next token) and not in a string. */
function inCode(sf, pos) {
  const node = nodeAt(sf, pos);
  return (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.getStart(sf) === pos;
}

/** A reference that is itself the name of a declaration (a definition, never a use). */
function isDeclarationName(sf, pos) {
  const node = nodeAt(sf, pos);
  const parent = node.parent;
  return Boolean(parent && DECLARATION_KINDS.has(parent.kind) && parent.name === node);
}

function definitions() {
  const out = [];
  const seen = new Map();
  const add = (sf, nameNode, kind, container) => {
    // One definition per symbol and kind: overloads are one function, but an interface and a
    // const merged under one name are two definitions (the name then is never chosen bare).
    const symbol = checker.getSymbolAtLocation(nameNode);
    if (symbol) {
      const seenKinds = seen.get(symbol) || new Set();
      if (seenKinds.has(kind)) return;
      seen.set(symbol, seenKinds.add(kind));
    }
    const [file, line, col] = location(sf, nameNode.getStart(sf));
    out.push({ name: nameNode.text, kind, container, file, line, col, oracle_id: `${file}:${nameNode.getStart(sf)}` });
  };
  const members = (sf, decl, container) => {
    for (const m of decl.members) {
      if (!m.name || !ts.isIdentifier(m.name)) continue;
      if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) add(sf, m.name, "method", container);
      else if (ts.isEnumMember(m)) add(sf, m.name, "constant", container);
      else add(sf, m.name, "property", container);
    }
  };
  const statements = (sf, list) => {
    for (const s of list) {
      if ((ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name) {
        add(sf, s.name, ts.isClassDeclaration(s) ? "class" : "interface", null);
        members(sf, s, s.name.text);
      } else if (ts.isEnumDeclaration(s)) {
        add(sf, s.name, "enum", null);
        members(sf, s, s.name.text);
      } else if (ts.isTypeAliasDeclaration(s)) add(sf, s.name, "type", null);
      else if (ts.isFunctionDeclaration(s) && s.name) add(sf, s.name, "function", null);
      else if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) add(sf, d.name, "variable", null);
      } else if (ts.isModuleDeclaration(s) && s.body && ts.isModuleBlock(s.body)) statements(sf, s.body.statements);
    }
  };
  for (const file of files) {
    const sf = program.getSourceFile(file);
    statements(sf, sf.statements);
  }
  return out;
}

function references(file, pos) {
  const uses = [];
  const declarations = [];
  for (const group of service.findReferences(path.join(root, file), pos) || []) {
    for (const entry of group.references) {
      const sf = program.getSourceFile(entry.fileName);
      if (!sf || !texts.has(entry.fileName)) continue;
      // A name in a string (`'closed' in value`) or a JSDoc `{@link x}` is not a use.
      if (entry.isInString || !inCode(sf, entry.textSpan.start)) continue;
      const where = location(sf, entry.textSpan.start);
      (isDeclarationName(sf, entry.textSpan.start) ? declarations : uses).push(where);
    }
  }
  return { uses, declarations };
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const request = JSON.parse(line);
  let answer;
  if (request.op === "defs") {
    answer = { definitions: definitions(), files: files.length, oracle: `typescript ${ts.version} findReferences` };
  } else {
    const found = request.at.map(([file, pos]) => references(file, pos));
    answer = { uses: found.map((f) => f.uses), declarations: found.map((f) => f.declarations) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
