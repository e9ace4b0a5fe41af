// The frame of the operator commands that open the database themselves (`npm run invite`,
// `npm run unlock`): configuration from the environment, --help, the arguments checked before
// anything is opened, a refusal while a server holds the embedded database, migrations, and the
// exit code. 0 done or help, 1 refused by the command or a running server, 2 a bad configuration
// or bad arguments.
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../../src/server/config';
import { databaseTargetOf, openDatabase, type AppDatabase } from '../../src/server/db/database';
import { loadDataKey } from '../../src/server/adapters/secret-box';
import { migrateToLatest } from '../../src/server/db/migrations';
import { usernameKeyer } from '../../src/server/domain/lockout';

export interface DatabaseCommand {
  usage: string;
  /** The error the command throws for what the operator typed or asked (its message is printed). */
  usageError: new (...args: never[]) => Error;
  /** Throws `usageError` for bad arguments; runs before anything is opened. */
  checkArgs(argv: string[]): void;
  /** Said after "The server at … is running on the embedded database, …": what to do instead. */
  busyAdvice: string;
  run(argv: string[], database: AppDatabase, config: Config): Promise<void>;
}

async function serverAnswers(publicUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${publicUrl}/health`, { signal: AbortSignal.timeout(1000) });
    return response.ok || response.status === 503;
  } catch {
    return false;
  }
}

async function runDatabaseCommand(command: DatabaseCommand, argv: string[]): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    command.checkArgs(argv);
  } catch (error) {
    if (error instanceof command.usageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (!config.databaseUrl && (await serverAnswers(config.publicUrl))) {
    console.error(
      `The server at ${config.publicUrl} is running on the embedded database, which only one process may open. ` +
        command.busyAdvice,
    );
    return 1;
  }
  const database = await openDatabase(databaseTargetOf(config));
  try {
    const keyOf = usernameKeyer(loadDataKey(config.dataEncryptionKey, config.dataDir));
    await migrateToLatest(database.db, { usernameKey: keyOf });
    await command.run(argv, database, config);
    return 0;
  } catch (error) {
    if (error instanceof command.usageError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.destroy();
  }
}

/** Runs the command when `moduleUrl` is the script Node was started with. */
export function runWhenMain(moduleUrl: string, command: DatabaseCommand): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  runDatabaseCommand(command, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
