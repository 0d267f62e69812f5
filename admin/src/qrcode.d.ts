/** The `qrcode` package's one call the back office uses (it ships no types of its own). */
declare module 'qrcode' {
  const QRCode: {
    toDataURL(
      text: string,
      options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H'; margin?: number; width?: number },
    ): Promise<string>;
  };
  export default QRCode;
}
