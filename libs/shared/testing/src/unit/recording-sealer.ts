/**
 * A sealer for use-case specs (MCP server headers, webhook secrets): seals by reference, so the
 * stored form never contains the plain text; records every call; opening checks the aad.
 */
export class RecordingSealer {
  readonly kekId = 'kek_test';
  readonly sealed: { plain: string; aad: string; sealed: string }[] = [];
  seal(plain: Buffer, aad: string): string {
    const sealed = `sealed#${this.sealed.length + 1}`;
    this.sealed.push({ plain: plain.toString(), aad, sealed });
    return sealed;
  }
  open(sealed: string, aad: string): Buffer {
    const entry = this.sealed.find((s) => s.sealed === sealed);
    if (!entry || entry.aad !== aad) throw new Error('cannot open');
    return Buffer.from(entry.plain);
  }
}
