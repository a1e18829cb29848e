/**
 * The pages' one script: the list page's search and kept tools (list.ts) and its "What is this?"
 * box (identify.ts); on a tool page the form, the runs and the answer (tool.ts); on the recipe page
 * the recipe (recipe.ts). It never asks for an API key: requests go out anonymous, under the
 * anonymous limit.
 */
import { identifyBox } from './identify.js';
import { listPage } from './list.js';
import { recipePage, type RecipeData } from './recipe.js';
import { toolPage, type ToolData } from './tool.js';

const searchBox = document.getElementById('search');
if (searchBox instanceof HTMLInputElement) listPage(searchBox);
const data = document.getElementById('tool-data');
const holder = document.getElementById('tool');
if (data && holder) toolPage(holder, JSON.parse(data.textContent ?? '{}') as ToolData);
const identify = document.getElementById('identify');
if (identify instanceof HTMLFormElement) identifyBox(identify);
const recipeData = document.getElementById('recipe-data');
const recipeHolder = document.getElementById('recipe');
if (recipeData && recipeHolder) recipePage(recipeHolder, JSON.parse(recipeData.textContent ?? '{}') as RecipeData);
