// The team's QR code: a PNG (qrcode package) of the team's join URL. The same URL and options
// always give the same bytes, so the image can be checked against a fresh rendering.
import crypto from 'node:crypto';
import type { QRCodeToBufferOptions } from 'qrcode';

/** Error correction M survives a smudged print; 8 pixels a module and the standard 4-module quiet zone. */
export const QR_OPTIONS: QRCodeToBufferOptions = { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 };

/** 128 random bits, URL-safe: the join URL cannot be guessed from the team id. */
export function newJoinCode(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** PUBLIC_BASE_URL/join/team/<teamId>?code=<joinCode>: what a scanned QR code opens. */
export function joinUrl(publicBaseUrl: string, teamId: number, joinCode: string): string {
  return `${publicBaseUrl}/join/team/${teamId}?code=${encodeURIComponent(joinCode)}`;
}

/** qrcode (0.4 MB of heap with pngjs) is loaded at the first image a team asks for. */
export function qrPng(text: string): Promise<Buffer> {
  const { toBuffer } = require('qrcode') as typeof import('qrcode');
  return toBuffer(text, QR_OPTIONS);
}
