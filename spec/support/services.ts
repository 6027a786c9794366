// Services the registry specs expose: one method per verb rule, and one per row of the error table.
import { HttpError, InvalidArgument, meta, method, service, t } from '../../index.ts';

export const Item = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'Item' });

/** Every method answers with its own name, so a spec can tell which one ran. */
export class VerbService {
  deleted: string[] = [];
  get() {
    return 'get';
  }
  getItems() {
    return 'getItems';
  }
  get_items() {
    return 'get_items';
  }
  findAll() {
    return 'findAll';
  }
  listItems() {
    return 'listItems';
  }
  getItem(id: bigint) {
    return `getItem ${id}`;
  }
  getaway() {
    return 'getaway';
  }
  listen() {
    return 'listen';
  }
  deleteItem(id: bigint) {
    this.deleted.push(`deleteItem ${id}`);
  }
  delete() {
    this.deleted.push('delete');
  }
  deletedItems() {
    return 'deletedItems';
  }
  updateItem(item: { id: bigint; name: string; weight: number }) {
    return `updateItem ${item.name}`;
  }
  createItem(item: { id: bigint; name: string; weight: number }) {
    return `createItem ${item.name}`;
  }
  ping() {
    return 'ping';
  }
  add(a: number, b: number) {
    return `add ${a + b}`;
  }
  fetchAll() {
    return 'fetchAll';
  }
  removeItem(id: bigint) {
    this.deleted.push(`removeItem ${id}`);
  }
}

export const VerbApi = meta(
  VerbService,
  service({
    get: method([], t.string()), // rule 4: GET
    getItems: method([], t.string()), // rule 4: GET
    get_items: method([], t.string()), // rule 4: GET
    findAll: method([], t.string()), // rule 4: GET
    listItems: method([], t.string()), // rule 4: GET
    getItem: method([t.u64()], t.string()), // rule 5: POST (a reader with parameters)
    getaway: method([], t.string()), // rule 6: POST (not the word "get")
    listen: method([], t.string()), // rule 6: POST (not the word "list")
    deleteItem: method([t.u64()], t.void()), // rule 1: DELETE, 204
    delete: method([], t.void()), // rule 1: DELETE
    deletedItems: method([], t.string()), // rule 6: POST (not the word "delete")
    updateItem: method([Item], t.string()), // rule 2: PUT
    createItem: method([Item], t.string()), // rule 3: POST
    ping: method([], t.string()), // rule 6: POST
    add: method([t.i32(), t.i32()], t.string()), // rule 5: POST, body [a, b]
    fetchAll: method([], t.string(), { verb: 'GET' }), // override
    removeItem: method([t.u64()], t.void(), { verb: 'DELETE' }), // override
  }),
);

/** The verb each method of VerbService must get. */
export const EXPECTED_VERBS: Record<string, string> = {
  get: 'GET',
  getItems: 'GET',
  get_items: 'GET',
  findAll: 'GET',
  listItems: 'GET',
  getItem: 'POST',
  getaway: 'POST',
  listen: 'POST',
  deleteItem: 'DELETE',
  delete: 'DELETE',
  deletedItems: 'POST',
  updateItem: 'PUT',
  createItem: 'POST',
  ping: 'POST',
  add: 'POST',
  fetchAll: 'GET',
  removeItem: 'DELETE',
};

/** One method per row of the error table. */
export class FaultyService {
  echo(item: { id: bigint; name: string; weight: number }) {
    return item;
  }
  invalid(): string {
    throw new InvalidArgument('weight must be positive');
  }
  teapot(): string {
    throw new HttpError(418, 'short and stout');
  }
  unavailable(): string {
    throw new HttpError(503, 'down for maintenance');
  }
  crash(): string {
    throw new Error('the database password is hunter2');
  }
  async reject(): Promise<string> {
    throw new Error('the database password is hunter2');
  }
  badResult(): string {
    return 42 as unknown as string;
  }
  async slowEcho(n: number): Promise<number> {
    await new Promise((r) => setImmediate(r));
    return n;
  }
}

export const FaultyApi = meta(
  FaultyService,
  service({
    echo: method([Item], Item),
    invalid: method([], t.string()),
    teapot: method([], t.string()),
    unavailable: method([], t.string()),
    crash: method([], t.string()),
    reject: method([], t.string()),
    badResult: method([], t.string()),
    slowEcho: method([t.i32()], t.i32()),
  }),
);
