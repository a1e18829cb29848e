/**
 * The pages' one script: the list page's search and kept tools (list.ts), and on a tool page the
 * form, the runs and the answer (tool.ts). It never asks for an API key: requests go out
 * anonymous, under the anonymous limit.
 */
import { listPage } from './list.js';
import { toolPage, type ToolData } from './tool.js';

const searchBox = document.getElementById('search');
if (searchBox instanceof HTMLInputElement) listPage(searchBox);
const data = document.getElementById('tool-data');
const holder = document.getElementById('tool');
if (data && holder) toolPage(holder, JSON.parse(data.textContent ?? '{}') as ToolData);
