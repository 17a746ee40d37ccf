// The names every scenario agrees on.
export const USER = 'admin';
export const PASSWORD = 'correct-horse-battery';
export const DOMAIN = 'example.test';
