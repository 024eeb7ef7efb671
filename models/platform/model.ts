/**
 * Collections per instance. A schema file declares its collection once with `defineModel`; the
 * value it exports works on the database of the context the caller runs in: the mongoose default
 * connection for the process's default context (the first Quire, the CLI, tests), the instance's
 * own connection for any other Quire in the same process. So domain code writes `Page.find(…)`
 * and two Quires on different data directories never see each other's rows.
 */
import mongoose, { type Model, type Schema } from 'mongoose';
import { currentContext, isDefaultContext, perContext } from './context';

// Models of every document type sit side by side here; their type is checked where declared.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModel = Model<any>;

interface ContextDatabase {
  /** The instance's own connection; null for the default context (mongoose's default one). */
  connection: mongoose.Connection | null;
  /** Models compiled on that connection, by name. */
  models: Map<string, AnyModel>;
}

const contextDatabase = perContext((): ContextDatabase => ({
  connection: null,
  models: new Map(),
}));

/** The connection of the caller's context. */
export function connection(): mongoose.Connection {
  if (isDefaultContext(currentContext())) return mongoose.connection;
  const own = contextDatabase().connection;
  if (!own) throw new Error(`no database is open in context ${currentContext().name}`);
  return own;
}

/** Gives the caller's context its own connection (a second Quire in the process). */
export function useConnection(own: mongoose.Connection | null): void {
  const state = contextDatabase();
  state.connection = own;
  state.models.clear();
}

/** The model `base` stands for in the caller's context. */
function modelInContext<T>(base: Model<T>): Model<T> {
  if (isDefaultContext(currentContext())) return base;
  const state = contextDatabase();
  if (!state.connection) throw new Error(`no database is open in context ${currentContext().name}`);
  let model = state.models.get(base.modelName) as Model<T> | undefined;
  if (!model) {
    model = state.connection.model<T>(base.modelName, base.schema as Schema<T>);
    state.models.set(base.modelName, model as AnyModel);
  }
  return model;
}

/**
 * Declares a collection. The returned model forwards every use (statics, `new`, `instanceof`)
 * to the caller's context's model; in the default context that is the model itself.
 */
export function defineModel<T>(name: string, schema: Schema<T>): Model<T> {
  const base = mongoose.model<T>(name, schema);
  return new Proxy(base, {
    get: (target, property) => {
      const model = modelInContext(target);
      return Reflect.get(model, property, model);
    },
    set: (target, property, value) => {
      const model = modelInContext(target);
      return Reflect.set(model, property, value, model);
    },
    has: (target, property) => Reflect.has(modelInContext(target), property),
    construct: (target, args) => Reflect.construct(modelInContext(target), args),
    apply: (target, thisArg, args) => Reflect.apply(modelInContext(target) as never, thisArg, args),
  });
}

/** Every declared collection, on the caller's context's connection (indexes, dumps). */
export function contextModels(): AnyModel[] {
  return mongoose.modelNames().map((name) => modelInContext(mongoose.model(name) as AnyModel));
}
