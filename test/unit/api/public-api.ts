/**
 * What the public API (src/index.ts, and src/kafkajs/index.ts for `tidemark/kafkajs`) shows but does not export.
 * The declarations `npm run build` would emit are emitted in memory and read back as a user's compiler reads them, so only what is public counts: private
 * members have no types there and function bodies are gone, while inferred types appear spelled out. From every
 * export, every type a declaration names is followed; one that the index does not export is reported, as is any
 * Error subclass of the library (src/cli aside) that the index does not export. The members of a namespace the
 * index exports (`Protocol`) count as exported, and are followed in turn.
 *
 * Run directly (`npx tsx test/unit/api/public-api.ts`) it prints the report.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The package's entry points (package.json `exports`), as sources. */
const ENTRY_POINTS = ['src/index.ts', 'src/kafkajs/index.ts'];
/** Where the emitted declarations live in memory; never written. */
const OUT_DIR = path.join(root, '.public-api-dts');

export interface UnexportedType {
  name: string;
  /** Source file (relative to the repository) declaring it. */
  file: string;
  /** An export whose declaration reaches it, for the message. */
  via: string;
}

export interface PublicApiReport {
  /** Every name src/index.ts exports. */
  exported: string[];
  /** Types that public signatures name and src/index.ts does not export. */
  unexportedTypes: UnexportedType[];
  /** Error classes of the library that src/index.ts does not export. */
  unexportedErrors: UnexportedType[];
  /** Problems compiling the sources, which would make the rest meaningless. */
  diagnostics: string[];
}

function emitDeclarations(): { files: Map<string, string>; diagnostics: string[] } {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    strict: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: root,
    outDir: OUT_DIR,
  };
  // The sources of the build, ambient declarations (codecs/compression/snappyjs.d.ts) included.
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const program = ts.createProgram(config?.fileNames ?? [], options);
  const files = new Map<string, string>();
  const emitted = program.emit(undefined, (file, text) => files.set(path.resolve(file), text));
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { files, diagnostics };
}

function declarationProgram(files: Map<string, string>): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.fileExists = (file) => files.has(path.resolve(file)) || fileExists(file);
  host.readFile = (file) => files.get(path.resolve(file)) ?? readFile(file);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (dir) =>
    path.resolve(dir).startsWith(OUT_DIR) || (directoryExists === undefined ? true : directoryExists(dir));
  // Every file, not only those the index reaches: an error class may be thrown from a file no signature names.
  return ts.createProgram([...files.keys()], options, host);
}

export function publicApiReport(): PublicApiReport {
  const { files, diagnostics } = emitDeclarations();
  const program = declarationProgram(files);
  const checker = program.getTypeChecker();
  // Every entry point package.json exports: `tidemark` and `tidemark/kafkajs`.
  const exportSymbols = ENTRY_POINTS.flatMap((entry) => {
    const file = program.getSourceFile(path.join(OUT_DIR, ...entry.split('/')).replace(/\.ts$/, '.d.ts'));
    if (file === undefined) throw new Error(`${entry} was not emitted`);
    return checker.getExportsOfModule(checker.getSymbolAtLocation(file) as ts.Symbol);
  });
  const resolve = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const ours = (decl: ts.Node): boolean => files.has(path.resolve(decl.getSourceFile().fileName));
  const sourceOf = (decl: ts.Node): string =>
    path.relative(OUT_DIR, decl.getSourceFile().fileName).replace(/\.d\.ts$/, '.ts');

  // A namespace export (`export type * as Protocol from ...`) exports its members: users name them
  // `Protocol.FetchResponse`. Each member is then followed like any export, so a member naming an unexported
  // type still fails; the module itself is not walked as a whole.
  const isNamespace = (s: ts.Symbol): boolean =>
    (s.flags & ts.SymbolFlags.ValueModule) !== 0 && (s.declarations ?? []).some(ts.isSourceFile);
  const roots = exportSymbols.flatMap((s) => {
    const target = resolve(s);
    if (!isNamespace(target)) return [{ symbol: target, via: s.name }];
    return checker.getExportsOfModule(target).map((m) => ({ symbol: resolve(m), via: `${s.name}.${m.name}` }));
  });
  const exported = new Set([...exportSymbols.map(resolve), ...roots.map((r) => r.symbol)]);
  const unexportedTypes = new Map<ts.Symbol, UnexportedType>();
  const visited = new Set<ts.Symbol>();
  const queue: { symbol: ts.Symbol; via: string }[] = roots;

  const reach = (node: ts.Node | undefined, via: string): void => {
    if (node === undefined) return;
    const found = node.pos >= 0 ? checker.getSymbolAtLocation(node) : undefined;
    if (found === undefined) return;
    const symbol = resolve(found);
    const decls = symbol.declarations ?? [];
    if (symbol.flags & ts.SymbolFlags.TypeParameter || decls.length === 0 || !decls.every(ours)) return;
    if (!exported.has(symbol) && !unexportedTypes.has(symbol)) {
      unexportedTypes.set(symbol, { name: symbol.name, file: sourceOf(decls[0]), via });
    }
    if (!visited.has(symbol)) queue.push({ symbol, via });
  };
  const rightmost = (name: ts.EntityName | ts.Expression): ts.Node =>
    ts.isQualifiedName(name) ? name.right : ts.isPropertyAccessExpression(name) ? name.name : name;
  const walk = (node: ts.Node, via: string): void => {
    if (ts.isTypeReferenceNode(node)) reach(rightmost(node.typeName), via);
    else if (ts.isExpressionWithTypeArguments(node)) reach(rightmost(node.expression), via);
    else if (ts.isTypeQueryNode(node)) reach(rightmost(node.exprName), via);
    else if (ts.isImportTypeNode(node) && node.qualifier !== undefined) reach(rightmost(node.qualifier), via);
    ts.forEachChild(node, (child) => walk(child, via));
  };
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    if (visited.has(item.symbol)) continue;
    visited.add(item.symbol);
    for (const decl of item.symbol.declarations ?? []) if (ours(decl)) walk(decl, item.via);
  }

  const unexportedErrors: UnexportedType[] = [];
  for (const file of program.getSourceFiles()) {
    if (!files.has(path.resolve(file.fileName))) continue;
    const source = sourceOf(file);
    if (source.startsWith(`src${path.sep}cli${path.sep}`)) continue;
    for (const statement of file.statements) {
      if (!ts.isClassDeclaration(statement) || statement.name === undefined) continue;
      const symbol = checker.getSymbolAtLocation(statement.name);
      if (symbol === undefined || exported.has(symbol)) continue;
      if (extendsError(checker, checker.getDeclaredTypeOfSymbol(symbol))) {
        unexportedErrors.push({ name: symbol.name, file: source, via: 'class extends Error' });
      }
    }
  }
  const byName = (a: UnexportedType, b: UnexportedType) => a.name.localeCompare(b.name) || a.file.localeCompare(b.file);
  return {
    exported: exportSymbols.map((s) => s.name).sort(),
    unexportedTypes: [...unexportedTypes.values()].sort(byName),
    unexportedErrors: unexportedErrors.sort(byName),
    diagnostics,
  };
}

function extendsError(checker: ts.TypeChecker, type: ts.Type, depth = 0): boolean {
  if (depth > 20 || !type.isClassOrInterface()) return false;
  return checker
    .getBaseTypes(type)
    .some((base) => base.symbol?.name === 'Error' || extendsError(checker, base, depth + 1));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = publicApiReport();
  for (const d of report.diagnostics) console.log(`diagnostic: ${d}`);
  console.log(`${report.exported.length} exports`);
  console.log(`unexported types (${report.unexportedTypes.length}):`);
  for (const t of report.unexportedTypes) console.log(`  ${t.name}  ${t.file}  (via ${t.via})`);
  console.log(`unexported errors (${report.unexportedErrors.length}):`);
  for (const t of report.unexportedErrors) console.log(`  ${t.name}  ${t.file}`);
}
