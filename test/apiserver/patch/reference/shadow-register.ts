// `node --import <this file>`: registers shadow mode's module hooks (shadow-hooks.ts).
import { register } from 'node:module';

register('./shadow-hooks.js', import.meta.url);
