// What the three benchmark servers serve: the specification's records, the same values for every server.
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { t, type Type } from '../../core/index.ts';
import { Book, User } from '../../examples/records.ts';

export { Book, User };

/** Ten users; the weights are exact in float32, so every server writes the same JSON. */
export const USERS: User[] = Array.from({ length: 10 }, (_, i) => ({
  id: BigInt(i + 1),
  name: ['Ada', 'Linus', 'Grace', 'Barbara', 'Edsger', 'Donald', 'Frances', 'Ken', 'Margaret', 'Dennis'][i]!,
  weight: 50 + i * 2.25,
}));

/** The users as the Fastify and node:http servers hold them: ids as plain numbers. */
export const PLAIN_USERS = USERS.map((u) => ({ id: Number(u.id), name: u.name, weight: u.weight }));

/** The body of the POST object endpoint. */
export const NEW_BOOK: Book = {
  id: 42,
  title: 'The Left Hand of Darkness',
  author: 'Ursula K. Le Guin',
  isbn: '978-0-441-47812-5',
  year: 1969,
};

/** The body of the POST scalar endpoint. */
export const USER_ID = 7n;

export const PREFIX = '/api';

/** One of the three endpoints every server answers, with its request bodies and expected answer. */
export interface BenchEndpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** What the answer decodes to, as lacquer holds it. */
  readonly answerType: Type;
  readonly answer: unknown;
  readonly jsonBody: string | undefined;
  readonly msgpackBody: Uint8Array | undefined;
}

export const ENDPOINTS: readonly BenchEndpoint[] = [
  {
    name: 'GET list (10 Users)',
    method: 'GET',
    path: `${PREFIX}/listUsers`,
    answerType: t.array(User),
    answer: USERS,
    jsonBody: undefined,
    msgpackBody: undefined,
  },
  {
    name: 'POST object (create a Book)',
    method: 'POST',
    path: `${PREFIX}/createBook`,
    answerType: Book,
    answer: NEW_BOOK,
    jsonBody: json.encode(Book, NEW_BOOK),
    msgpackBody: msgpack.encode(Book, NEW_BOOK),
  },
  {
    name: 'POST scalar (getUserById)',
    method: 'POST',
    path: `${PREFIX}/getUserById`,
    answerType: User,
    answer: USERS[Number(USER_ID) - 1],
    jsonBody: json.encode(t.u64(), USER_ID),
    msgpackBody: msgpack.encode(t.u64(), USER_ID),
  },
];
