window.addEventListener("load",function(){for(const im of document.images){
if(!im.complete||im.naturalWidth===0){console.error("report image failed to load: "+im.alt);}}});
