(function(){
var tables=document.querySelectorAll("table.samples-table");if(!tables.length)return;
function key(row,i,num){var c=row.cells[i],v=c.getAttribute("data-v");
if(num)return v===null||v===""?null:parseFloat(v);return(v===null?c.textContent:v).toLowerCase();}
Array.prototype.forEach.call(tables,function(table){
var body=table.tBodies[0],heads=table.tHead.rows[0].cells;
Array.prototype.forEach.call(heads,function(th,i){var b=th.querySelector("button");if(!b)return;
b.addEventListener("click",function(){var num=th.getAttribute("data-type")==="num";
var dir=th.getAttribute("aria-sort")==="ascending"?-1:1;
Array.prototype.forEach.call(heads,function(h){h.removeAttribute("aria-sort");});
th.setAttribute("aria-sort",dir===1?"ascending":"descending");
var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(a,b){var x=key(a,i,num),y=key(b,i,num);if(x===null||y===null)return x===y?0:x===null?1:-1;
return x<y?-dir:x>y?dir:0;});rows.forEach(function(r){body.appendChild(r);});});});});
var f=document.getElementById("sample-filter");
if(f)f.addEventListener("input",function(){var q=f.value.toLowerCase();
Array.prototype.forEach.call(tables,function(table){
Array.prototype.forEach.call(table.tBodies[0].rows,function(r){r.hidden=!!q&&r.textContent.toLowerCase().indexOf(q)<0;});});});
})();
