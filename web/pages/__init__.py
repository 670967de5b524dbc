"""What every page is built from, below every feature and importing none: a page's table sections
and downloads (`sections`), the columns of the site's tables (`columns`), names with tooltips
(`names`), names typed into a form found among the players (`typed_names`), numbers and dates
(`formatting`), paging, the chart, who may enter results (`access`) and the pages that say what went
wrong (`errors`)."""
