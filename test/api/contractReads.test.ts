/**
 * The contract is the route's signature: an action whose contract (api/contracts/) declares a
 * field reads it from `ctx.input`, never again from `ctx.params` (a second reading that can
 * disagree with the declared one, as page/save's `cat_id` once did). A static scan of
 * api/routes/*.ts with the TypeScript parser: for every action given to `defineController`, its
 * handler's body (inline, or a function of the same file or of a sibling route file it names)
 * and the same-file helpers that body hands `ctx` to are searched for
 * `ctx.params.<read>('<field>')`; a field the action's contract declares fails the test.
 */
import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { z } from 'zod';
import { findContract } from '../../api/contracts';
import { actionKey, controllerKey } from '../../api/showdocRoute';

const ROUTES = path.resolve(__dirname, '../../api/routes');

/** A field read from `ctx.params` in an action. */
interface ParamsRead {
  file: string;
  controller: string;
  action: string;
  field: string;
}

const READ = /\bctx\.params\.(?:str|int|bool|list|value|has)\(\s*'([^']+)'/g;

/** Top-level functions of a file by name (function declarations and `const x = (…) => …`). */
function topLevelFunctions(source: ts.SourceFile): Map<string, ts.Node> {
  const found = new Map<string, ts.Node>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name)
      found.set(statement.name.text, statement);
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name) && declaration.initializer)
          found.set(declaration.name.text, declaration.initializer);
  }
  return found;
}

interface RouteFile {
  source: ts.SourceFile;
  functions: Map<string, ts.Node>;
}

const parsed = new Map<string, RouteFile>();
function routeFile(file: string, text = fs.readFileSync(file, 'utf8')): RouteFile {
  let entry = parsed.get(file);
  if (!entry) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    entry = { source, functions: topLevelFunctions(source) };
    parsed.set(file, entry);
  }
  return entry;
}

/** Where an imported name comes from, when it is a sibling route file (`./pageUpload`). */
function siblingOf(source: ts.SourceFile, name: string): string | undefined {
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const from = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    if (!from.startsWith('./') || !bindings || !ts.isNamedImports(bindings)) continue;
    if (bindings.elements.some((element) => element.name.text === name))
      return path.join(path.dirname(source.fileName), `${from.slice(2)}.ts`);
  }
  return undefined;
}

/** The text of a handler and of the same-file helpers it passes `ctx` to (one level deep). */
function handlerText(file: RouteFile, handler: ts.Node): string {
  const body = handler.getText(file.source);
  const helpers = [...body.matchAll(/\b([A-Za-z_$][\w$]*)\(\s*ctx\b/g)]
    .map((match) => file.functions.get(match[1]))
    .filter((node): node is ts.Node => node !== undefined && node !== handler);
  return [body, ...helpers.map((node) => node.getText(file.source))].join('\n');
}

/** Every `ctx.params` read of every `defineController` action in one route file. */
function paramsReads(fileName: string, text?: string): ParamsRead[] {
  const file = routeFile(fileName, text);
  const reads: ParamsRead[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'defineController' &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const controller = node.arguments[0].text;
      const actions = node.arguments[node.arguments.length - 1];
      if (actions && ts.isObjectLiteralExpression(actions))
        for (const property of actions.properties) {
          const name = property.name && ts.isIdentifier(property.name) ? property.name.text : '';
          let handler: ts.Node | undefined;
          let owner = file;
          if (ts.isMethodDeclaration(property)) handler = property;
          else if (
            ts.isPropertyAssignment(property) ||
            ts.isShorthandPropertyAssignment(property)
          ) {
            const target = ts.isPropertyAssignment(property) ? property.initializer : property.name;
            if (ts.isIdentifier(target)) {
              handler = file.functions.get(target.text);
              const sibling = handler ? undefined : siblingOf(file.source, target.text);
              if (sibling) {
                owner = routeFile(sibling);
                handler = owner.functions.get(target.text);
              }
            } else handler = target;
          }
          if (!name || !handler) continue;
          for (const match of handlerText(owner, handler).matchAll(READ))
            reads.push({
              file: path.basename(fileName),
              controller,
              action: name,
              field: match[1],
            });
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(file.source);
  return reads;
}

/** The reads whose field the action's contract declares. */
function declaredButReread(reads: ParamsRead[]): string[] {
  return reads
    .filter(({ controller, action, field }) => {
      const contract = findContract(controllerKey(controller), actionKey(action));
      const shape = contract && (contract.input as z.ZodObject).shape;
      return shape !== undefined && Object.hasOwn(shape, field);
    })
    .map(({ file, controller, action, field }) => `${file}: ${controller}/${action} ${field}`);
}

describe('actions read their declared input from ctx.input only', () => {
  it('no controller reads a declared field from ctx.params', () => {
    const files = fs.readdirSync(ROUTES).filter((name) => name.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['page.ts', 'item.ts', 'open.ts']));
    const reads = files.flatMap((name) => paramsReads(path.join(ROUTES, name)));
    expect(declaredButReread(reads)).toEqual([]);
  });

  it('catches a declared field read from ctx.params, in the action or in a helper it hands ctx', () => {
    const source = `
      import { defineController } from '../registry';
      function pageOf(ctx) { return ctx.params.int('page_id'); }
      const shared = async (ctx) => ctx.params.str('unique_key');
      export const c = defineController('page', pageContract, {
        async info(ctx) { return pageOf(ctx) + ctx.params.str('_item_pwd'); },
        infoByKey: shared,
        async delete(ctx) { return ctx.input.page_id; },
      });`;
    const reads = paramsReads(path.join(ROUTES, 'probe.ts'), source);
    expect(reads.map((r) => `${r.action} ${r.field}`).sort()).toEqual([
      'info _item_pwd',
      'info page_id',
      'infoByKey unique_key',
    ]);
    // `_item_pwd` is transport, not declared: only the declared fields fail.
    expect(declaredButReread(reads)).toEqual([
      'probe.ts: page/info page_id',
      'probe.ts: page/infoByKey unique_key',
    ]);
  });
});
