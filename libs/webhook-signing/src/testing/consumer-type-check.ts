import { join } from 'node:path';
import ts from 'typescript';

/**
 * Type-checks a consumer project as `tsc -p` does with `skipLibCheck` off, and reports what its
 * author would see of the package: errors in the consumer's files and in the package's own
 * declaration files. The frameworks' declarations beside them (@types/node, Express, Fastify,
 * Nest: some 600 files) are read once for every resolution and checked only as far as the
 * package and the consumer use them: checking all of them cost 10 CPU-seconds per resolution.
 */
export class ConsumerTypeCheck {
  /** Parsed declaration files under node_modules, by name and parse options (which differ by resolution). */
  private readonly parsed = new Map<string, ts.SourceFile>();

  constructor(
    private readonly project: string,
    /** The installed package, whose declarations are checked in full. */
    private readonly packageDir: string,
  ) {}

  /** tsc's report for `files` under the given compilerOptions (as in a tsconfig.json): empty when clean. */
  report(compilerOptions: Record<string, unknown>, files: string[]): string {
    const { options, errors } = ts.convertCompilerOptionsFromJson(compilerOptions, this.project);
    const host = this.host(options);
    const program = ts.createProgram({ rootNames: files.map((file) => join(this.project, file)), options, host });
    const checked = program.getSourceFiles().filter((file) => !file.fileName.includes('/node_modules/') || file.fileName.startsWith(`${this.packageDir}/`));
    const diagnostics = [
      ...errors,
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
    ];
    return ts.formatDiagnostics(diagnostics, host);
  }

  private host(options: ts.CompilerOptions): ts.CompilerHost {
    const host = ts.createCompilerHost(options, true);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, parseOptions, onError, shouldCreate) => {
      if (!fileName.includes('/node_modules/')) return read(fileName, parseOptions, onError, shouldCreate);
      const key = `${fileName}\0${JSON.stringify(parseOptions)}`;
      const file = this.parsed.get(key) ?? read(fileName, parseOptions, onError, shouldCreate);
      if (file) this.parsed.set(key, file);
      return file;
    };
    return host;
  }
}
