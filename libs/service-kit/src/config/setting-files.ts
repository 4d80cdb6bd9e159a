/**
 * The file each setting of a loaded configuration was read from (`<NAME>_FILE`): a key that is
 * read again when its file changes needs the path, not only the content loadConfig read.
 */
const filesOf = new WeakMap<object, ReadonlyMap<string, string>>();

export function recordSettingFiles(config: object, files: ReadonlyMap<string, string>): void {
  filesOf.set(config, files);
}

/** The file a setting came from, or undefined when it was given in the environment itself. */
export function settingFile<T extends object>(config: T, name: keyof T & string): string | undefined {
  return filesOf.get(config)?.get(name);
}

/** A setting's value as its file holds it: the one final newline an editor or `echo` adds dropped. */
export const settingFileText = (content: string): string => content.replace(/\r?\n$/, '');
