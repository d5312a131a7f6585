export function intoPlace(dir: string, fill: (staging: string) => void | Promise<void>): Promise<void>;
export function copyDataDir(template: string, dir: string): Promise<void>;
