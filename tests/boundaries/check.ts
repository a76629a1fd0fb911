// What tests/boundaries.test.ts reads in a source file, as functions of its text: the modules it
// loads (import and export statements, import() and require()) and its writes to the environment
// (process.env itself, an alias of it, or a parameter that receives it).
import ts from "typescript";

/** The module names a source loads, comments aside. */
export function loadedModules(text: string): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile("file.tsx", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) found.push(node.moduleReference.expression.text);
    if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) found.push(first.text);
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) found.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const isProcessEnv = (node: ts.Node): boolean =>
  ts.isPropertyAccessExpression(node) && node.name.text === "env" && ts.isIdentifier(node.expression) && node.expression.text === "process";

type FunctionLike = ts.FunctionDeclaration | ts.FunctionExpression | ts.ArrowFunction | ts.MethodDeclaration;

function nameOfFunction(fn: FunctionLike): string | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name && ts.isIdentifier(fn.name)) return fn.name.text;
  if (ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) return fn.parent.name.text;
  return undefined;
}

/** Each call given process.env, as "function name/argument position", across the sources given. */
export function callsGivenTheEnvironment(texts: readonly string[]): Set<string> {
  const calls = new Set<string>();
  for (const text of texts) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = ts.isIdentifier(node.expression) ? node.expression.text : ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : undefined;
        node.arguments.forEach((arg, i) => {
          if (callee && isProcessEnv(arg)) calls.add(`${callee}/${i}`);
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(ts.createSourceFile("file.tsx", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX));
  }
  return calls;
}

/**
 * The lines of a source that write the environment: an assignment to a member of, a delete from,
 * or an Object.assign into process.env, a name bound to it, or a parameter that receives it (its
 * default, its type NodeJS.ProcessEnv, or a call of its function given process.env, in `calls`).
 */
export function environmentWrites(text: string, calls: ReadonlySet<string> = callsGivenTheEnvironment([text])): number[] {
  const source = ts.createSourceFile("file.tsx", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const aliases = new Set<ts.Node>();
  const declare = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) aliases.add(name);
  };
  const collect = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer && isProcessEnv(node.initializer)) declare(node.name);
    if (ts.isParameter(node)) {
      const typed = node.type !== undefined && /^NodeJS\.ProcessEnv$/.test(node.type.getText(source));
      const fn = node.parent as FunctionLike;
      const name = ts.isFunctionLike(fn) ? nameOfFunction(fn) : undefined;
      const index = ts.isFunctionLike(fn) ? fn.parameters.indexOf(node) : -1;
      if ((node.initializer && isProcessEnv(node.initializer)) || typed || (name !== undefined && calls.has(`${name}/${index}`))) declare(node.name);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const names = new Set([...aliases].map((n) => (n as ts.Identifier).text));
  const isEnvironment = (node: ts.Node): boolean => {
    while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) node = node.expression;
    return isProcessEnv(node) || (ts.isIdentifier(node) && names.has(node.text));
  };
  const isMemberOfEnvironment = (node: ts.Node) => (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && isEnvironment(node.expression);
  const lines: number[] = [];
  const at = (node: ts.Node) => lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment && isMemberOfEnvironment(node.left)) at(node);
    if (ts.isDeleteExpression(node) && isMemberOfEnvironment(node.expression)) at(node);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.getText(source) === "Object.assign" && node.arguments[0] && isEnvironment(node.arguments[0])) at(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}
