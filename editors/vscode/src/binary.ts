// Which tandem binary the extension starts. A platform-specific package
// (vsce package --target) carries one in bin/; the universal package
// carries none and uses tandem from PATH. A tandem.path the user set
// explicitly always wins: it is how one points the extension at a build of
// their own.
import * as fs from 'node:fs';
import * as path from 'node:path';

// serverCommand picks the command: the user's own tandem.path setting
// (undefined when they set none), else the bundled binary when the package
// has one, else `tandem` on PATH.
export function serverCommand(userSetting: string | undefined, extensionPath: string, platform: string = process.platform,
  exists: (p: string) => boolean = isFile): string {
  if (userSetting) return userSetting;
  const bundled = path.join(extensionPath, 'bin', platform === 'win32' ? 'tandem.exe' : 'tandem');
  if (exists(bundled)) return bundled;
  return 'tandem';
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
