import { runAppScript } from './app-script';

/** Runs tail-sync's own rebuild entry point. */
export async function rebuildProjectionsCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log('usage: npm run cli -- rebuild-projections   (DATABASE_URL, EVENT_STORE as for tail-sync; defaults to the local stack)');
    return 0;
  }
  return runAppScript('tail-sync', 'rebuild-projections');
}
