import type pg from 'pg';

/**
 * Several statements run as one transaction in one round trip, each prepared once per connection.
 *
 * The extended protocol without a Sync between them: Bind and Execute for each statement, one Sync
 * at the end. The database runs everything up to a Sync as one implicit transaction (committed at
 * the Sync, rolled back as a whole if a statement fails: the messages after the failure are skipped),
 * which is what a multi-statement simple query gave, but the simple query's text was parsed, analysed
 * and planned on every batch. Here a text is parsed on a connection the first time it is sent there and
 * only bound afterwards (README "Prepared batches": a small batch on PGlite's thread about a quarter
 * cheaper, PostgreSQL's CPU per charger call at 1,000 calls/s less than half).
 *
 * Statements given here must have no result the caller needs (inserts and updates): rows are not read.
 */
export interface PipelinedStatement {
  text: string;
  values: readonly (string | null)[];
}

/**
 * Set on a pool whose statements go unnamed (`CSMS_DB_NAMED_STATEMENTS=false`: a pooler in transaction
 * mode that does not keep prepared statements): each run parses its texts again, in the same round trip.
 */
export const UNNAMED = Symbol('csms.unnamedStatements');

/** Texts that get a name, per process; a text beyond them is parsed at every run (the unnamed statement). */
const MAX_NAMES = 64;
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) names.set(text, (name = `csms_pipelined_${names.size + 1}`));
  return name ?? '';
}

/** What node-postgres's connection offers a submittable (pg/lib/connection.js). */
interface Connection {
  parsedStatements: Record<string, string>;
  stream: { cork?(): void; uncork?(): void };
  parse(msg: { text: string; name: string; types: number[] }): void;
  bind(msg: { statement: string; values: readonly (string | null)[] }): void;
  execute(msg: { portal: string; rows: number }): void;
  close(msg: { type: 'S'; name: string }): void;
  sync(): void;
  sendCopyFail(message: string): void;
}

/**
 * The statements as one node-postgres submittable: the client calls `submit` when its turn comes and
 * hands it the backend's answers until the ReadyForQuery that follows the Sync.
 */
class Pipeline {
  callback?: (err: Error | null) => void;
  private connection: Connection | undefined;
  private failed: Error | undefined;
  /** Names parsed by this run, known to the connection once it succeeded. */
  private parsing = new Map<string, string>();

  constructor(
    private readonly statements: readonly PipelinedStatement[],
    private readonly named: boolean,
  ) {}

  submit(connection: Connection): null {
    connection.stream.cork?.();
    try {
      for (const { text, values } of this.statements) {
        const name = this.named ? nameOf(text) : '';
        if (name === '') connection.parse({ text, name, types: [] });
        else if (connection.parsedStatements[name] === undefined && !this.parsing.has(name)) {
          // A run that failed may have parsed it before its failure, or not: closing a statement
          // that does not exist is no error.
          connection.close({ type: 'S', name });
          connection.parse({ text, name, types: [] });
          this.parsing.set(name, text);
        }
        connection.bind({ statement: name, values });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    this.connection = connection;
    return null;
  }

  handleError(err: Error): void {
    // The client is no longer ours after an error; its ReadyForQuery goes to nobody.
    this.failed ??= err;
    this.callback?.(err);
  }

  handleReadyForQuery(): void {
    if (this.failed) return;
    for (const [name, text] of this.parsing) this.connection!.parsedStatements[name] = text;
    this.callback?.(null);
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('no copy in a pipeline');
  }
  handleCopyData(): void {}
}

/** Runs `statements` atomically on `client` (see Pipeline); nothing is sent for none. */
export function runPipelinedOn(client: pg.ClientBase, statements: readonly PipelinedStatement[], { named = true } = {}): Promise<void> {
  if (statements.length === 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const pipeline = new Pipeline(statements, named);
    pipeline.callback = (err) => (err ? reject(err) : resolve());
    void client.query(pipeline as unknown as pg.QueryConfig);
  });
}

/** Runs `statements` atomically on a connection of `pool`. */
export async function runPipelined(pool: pg.Pool, statements: readonly PipelinedStatement[]): Promise<void> {
  if (statements.length === 0) return;
  const named = !(pool as unknown as { [UNNAMED]?: boolean })[UNNAMED];
  const client = await pool.connect();
  try {
    await runPipelinedOn(client, statements, { named });
  } finally {
    client.release();
  }
}
